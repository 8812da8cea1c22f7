/**
 * The size limit: no source file over 400 lines, so each can be read whole. Data files in
 * definitions/, the tests and built output are excepted.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAX_LINES = 400;
const SOURCE = /\.(ts|tsx|js|mjs|cjs|css|sh|html)$/;
const EXCEPTED = /^(definitions|tests)\/|(^|\/)dist\//;

/** Every file in the work tree that git tracks or would track (new files count before a commit). */
function repositoryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return listed.split('\n').filter(Boolean);
}

function lineCount(path: string): number {
  let text: string;
  try {
    text = readFileSync(join(ROOT, path), 'utf8');
  } catch {
    return 0; // deleted in the work tree but not yet in the index
  }
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe(`source files stay within ${MAX_LINES} lines`, () => {
  const sources = repositoryFiles().filter((path) => SOURCE.test(path) && !EXCEPTED.test(path));
  const sizes = new Map(sources.map((path) => [path, lineCount(path)]));

  it('finds the sources it checks', () => {
    // A broken listing would pass every check below; the server, app and runtime are always there.
    expect(sources).toEqual(
      expect.arrayContaining(['server/app.ts', 'src/main.tsx', 'runtime/index.ts']),
    );
  });

  it(`has no source file over ${MAX_LINES} lines outside definitions/ and tests/`, () => {
    const over = [...sizes]
      .filter(([, lines]) => lines > MAX_LINES)
      .map(([path, lines]) => `${path}: ${lines} lines`);
    expect(over).toEqual([]);
  });
});
