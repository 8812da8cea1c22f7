/**
 * `npm test` runs every test file once, and the projects that run part of the suite (`npm run
 * test:unit`, `test:server`, `test:e2e`) split it with nothing left out: each file on disk belongs to
 * exactly one of them, as Vitest itself resolves vitest.config.ts; and the browser suites named for a
 * second run on the bundled Chromium all exist (a renamed file would silently lose its rerun).
 * The unit files share their worker (D203), so no file may mock a module: the mock would outlive it.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BUNDLED_BROWSER_SUITES,
  PAIRED_TIMED_SUITES,
  TEST_PROJECTS,
  TIMED_SUITES,
} from '../../vitest.config';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const BUNDLED = 'bundled-chromium';
/** The bundled rerun of a timed suite keeps the timed suites' terms (D203). */
const BUNDLED_TIMED = 'bundled-chromium-timed';
/** The server suites with time bounds, run apart from the shared worker (D203). */
const TIMED = 'server-timed';
const PAIRED = 'server-timed-paired';

const testFilesOnDisk = (): string[] =>
  readdirSync(path.join(ROOT, 'tests'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.test\.tsx?$/.test(file))
    .map((file) => path.posix.join('tests', file.split(path.sep).join('/')))
    .sort();

describe('the test projects', () => {
  /** Project name → the files Vitest gives it. */
  const projects = new Map<string, string[]>();
  beforeAll(async () => {
    const { stdout } = await run(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'list', '--filesOnly', '--json'],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
    );
    for (const { file, projectName } of JSON.parse(stdout) as {
      file: string;
      projectName: string;
    }[]) {
      const relative = path.relative(ROOT, file).split(path.sep).join('/');
      projects.set(projectName, [...(projects.get(projectName) ?? []), relative]);
    }
  }, 120_000);

  it('are the three parts of the suite, the timed server suites and the bundled-Chromium rerun', () => {
    expect([...projects.keys()].sort()).toEqual(
      [...Object.keys(TEST_PROJECTS), TIMED, PAIRED, BUNDLED, BUNDLED_TIMED].sort(),
    );
  });

  it('give every test file on disk to exactly one part', () => {
    const parts = [...Object.keys(TEST_PROJECTS), TIMED, PAIRED].flatMap(
      (name) => projects.get(name) ?? [],
    );
    expect(parts.sort()).toEqual(testFilesOnDisk());
  });

  it('run the timed server suites apart, each of them on disk: the paired ones two at a time', () => {
    const timed = [...(projects.get(TIMED) ?? []), ...(projects.get(PAIRED) ?? [])];
    expect(timed.sort()).toEqual([...TIMED_SUITES].sort());
    expect((projects.get(PAIRED) ?? []).sort()).toEqual([...PAIRED_TIMED_SUITES].sort());
    // Paired suites are timed ones, none of them rerun on the bundled browser (that rerun is alone).
    expect(PAIRED_TIMED_SUITES.filter((file) => !TIMED_SUITES.includes(file))).toEqual([]);
    expect(PAIRED_TIMED_SUITES.filter((file) => BUNDLED_BROWSER_SUITES.includes(file))).toEqual([]);
  });

  it('rerun on the bundled Chromium every suite it names, each of them on disk', () => {
    const rerun = [...(projects.get(BUNDLED) ?? []), ...(projects.get(BUNDLED_TIMED) ?? [])];
    expect(rerun.sort()).toEqual([...BUNDLED_BROWSER_SUITES].sort());
  });

  it('rerun a timed suite on the bundled Chromium alone, as the timed suites run', () => {
    expect(projects.get(BUNDLED_TIMED) ?? []).toEqual(
      BUNDLED_BROWSER_SUITES.filter((file) => TIMED_SUITES.includes(file)),
    );
    expect(projects.get(BUNDLED_TIMED)?.length).toBeGreaterThan(0);
  });
});

it('has no test file that mocks a module, which would outlive it in a shared worker (D203)', () => {
  const mocking = testFilesOnDisk().filter((file) =>
    /\bvi\s*\.\s*(mock|doMock)\s*\(/.test(readFileSync(path.join(ROOT, file), 'utf8')),
  );
  expect(mocking).toEqual([]);
});
