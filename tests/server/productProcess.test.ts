/**
 * `npm start`'s default, as a fresh machine runs it: the server process on the embedded PGlite with
 * its job worker forked beside it (D98), statements coming back over IPC. A Word file converts and
 * the application PDF prints there, so the web process never hosts Chromium or the sandbox.
 *
 * Stopping (D125): whichever process is stopped first (the web process, the worker, the
 * `npm start` parent, or all of them at once as Ctrl-C does), every process of the product (web,
 * worker, the worker's Chromium) is gone within the bound.
 */
import { copyFile, mkdtemp, readdir, rm, stat, symlink, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { SHUTDOWN_BOUND_MS } from '../../server/shutdown';
import { validApplication } from '../definitions/fixtures';
import { pdfPagesText, squeeze } from '../fixtures/pdfText';
import { docx } from './documentFiles';
import { submitFile, waitForPdf } from './documentUploads';
import { loggedInOverHttp, type TestServer } from './harness';
import { alive, childCommands, descendants } from './processTree';
import { firstStartedDataDir, startServerProcess } from './serverProcess';

/** Beyond the bound: the exit itself, seen from another process on a shared 2-core machine. */
const EXIT_SLACK_MS = 3000;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A data directory a first start has made (migrated, seeded): these tests are about stopping. */
async function startedDataDir(): Promise<string> {
  const dir = await firstStartedDataDir('admission-product-');
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Signs up and uploads a Word transcript, converted by the worker's Chromium (then left warm). */
async function convertInWorker(url: string, dataDir: string) {
  const client = await loggedInOverHttp(url, dataDir, 'product@example.com');
  const transcript = await submitFile(
    { url } as TestServer,
    client,
    'transcript.docx',
    await docx(['Transcript from Word']),
  );
  expect(transcript.settled.status).toBe('COMPLETED');
  return client;
}

/** The conversion, then the submission and the printed application PDF. */
async function convertAndPrint(url: string, dataDir: string): Promise<Uint8Array> {
  const client = await convertInWorker(url, dataDir);
  expect(
    (await client.put('/api/answer', { ...validApplication, transcript_file: 'ANSWERED' })).status,
  ).toBe(200);
  expect((await client.post('/api/submit', {})).status).toBe(200);
  const ready = await waitForPdf(client);
  expect(ready.status).toBe('COMPLETED');
  const file = await client.get(ready.url as string);
  expect(file.headers.get('content-type')).toBe('application/pdf');
  return new Uint8Array(file.bytes);
}

/** The worker below `web` and the Chromium processes below the worker (the warm print browser). */
async function workerTree(web: number) {
  const below = await descendants(web);
  // server/worker.ts, or its bundle dist/server/worker.js under `npm start` (D141).
  const worker = below.find((p) => p.command.includes('server/worker.'));
  expect(worker, 'the web process has its worker').toBeDefined();
  const chromium = (await descendants(worker!.pid))
    .filter((p) => /chrom/i.test(p.command))
    .map((p) => p.pid);
  return { worker: worker!.pid, chromium };
}

/** Waits until none of `pids` runs; the milliseconds from `since`, or fails past the bound. */
async function allGone(pids: number[], since: number): Promise<number> {
  await expect
    .poll(() => pids.filter(alive), { timeout: SHUTDOWN_BOUND_MS + EXIT_SLACK_MS, interval: 50 })
    .toEqual([]);
  return performance.now() - since;
}

/** npm's own script: the one running this suite, else the one installed beside node. */
const npmCli = () =>
  process.env.npm_execpath?.endsWith('npm-cli.js')
    ? process.env.npm_execpath
    : path.join(path.dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js');

/**
 * `node scripts/start.mjs` as `npm start` runs it (or `npm start` itself, with `viaNpm`), in its own
 * process group (as a terminal runs a command), from a directory that links the repository's files
 * but not index.html (no client build: the server and its stop are under test here, not Vite) nor
 * dist (the server is bundled there, apart from the repository's own build).
 */
async function startProduct(dataDir: string, viaNpm = false) {
  const root = process.cwd();
  const cwd = await tempDir('admission-start-');
  for (const entry of await readdir(root))
    if (!['index.html', '.git', 'package-lock.json', 'dist'].includes(entry))
      await symlink(path.join(root, entry), path.join(cwd, entry));
  // A lockfile no newer than the installed packages: start.mjs then installs nothing.
  const lock = path.join(cwd, 'package-lock.json');
  await copyFile(path.join(root, 'package-lock.json'), lock);
  const installed = await stat(path.join(root, 'node_modules/.package-lock.json'));
  // A second older: utimes rounds, and a lockfile a fraction of a millisecond newer is stale.
  await utimes(lock, installed.atime, new Date(installed.mtimeMs - 1000));
  const { child, url, exited, log } = await startServerProcess(
    dataDir,
    { JOB_WORKER: '' },
    { detached: true, script: viaNpm ? [npmCli(), 'start'] : ['scripts/start.mjs'], cwd },
  );
  cleanups.push(async () => {
    for (const p of await descendants(child.pid as number)) process.kill(p.pid, 'SIGKILL');
    child.kill('SIGKILL');
  });
  await expect.poll(log, { timeout: 180_000, interval: 100 }).toContain('job worker running');
  const web = (await descendants(child.pid as number)).find((p) =>
    p.command.includes('dist/server/main.js'),
  );
  expect(web).toBeDefined();
  return { child, url, exited, log, web: web!.pid };
}

describe('the product process (PGlite, the worker forked beside it)', () => {
  it('converts a Word file and prints the application PDF in its worker; on SIGTERM the web process, its worker and Chromium are gone within the bound', async () => {
    const dataDir = await startedDataDir();
    // JOB_WORKER unset: the default, one worker process forked by the server.
    const { child, url, exited, healthy, log } = await startServerProcess(dataDir, {
      JOB_WORKER: '',
    });
    cleanups.push(async () => child.kill('SIGKILL'));
    const health = await healthy(180);
    expect(health?.status).toBe(200);
    // The worker starts after the listener; on a loaded machine that takes a while.
    await expect.poll(log, { timeout: 180_000, interval: 100 }).toContain('job worker running');

    const bytes = await convertAndPrint(url, dataDir);
    expect((await PDFDocument.load(bytes)).getPageCount()).toBeGreaterThan(1);
    const text = squeeze((await pdfPagesText(bytes)).join('\n'));
    expect(text).toContain(squeeze('Avery Jordan Lopez'));
    expect(text).toContain(squeeze('Transcript from Word'));

    // The worker, not the web process, launched Chromium: no browser is the web process's child.
    const children = await childCommands(child.pid as number);
    expect(children.some((command) => command.includes('server/worker.ts'))).toBe(true);
    expect(children.filter((command) => /chrom/i.test(command))).toEqual([]);
    const { worker, chromium } = await workerTree(child.pid as number);
    expect(chromium.length).toBeGreaterThan(0);

    const start = performance.now();
    child.kill('SIGTERM');
    expect(await exited, log()).toBe(0);
    const took = await allGone([child.pid as number, worker, ...chromium], start);
    expect(took).toBeLessThan(SHUTDOWN_BOUND_MS + EXIT_SLACK_MS);
    expect(log()).not.toContain('shutdown bound reached');
  }, 300_000);

  it('a worker stopped first goes with its Chromium and is replaced; Ctrl-C then stops the web process and its new worker within the bound', async () => {
    const dataDir = await startedDataDir();
    const { child, url, exited, healthy, log } = await startServerProcess(
      dataDir,
      { JOB_WORKER: '' },
      { detached: true },
    );
    cleanups.push(async () => child.kill('SIGKILL'));
    expect((await healthy(180))?.status).toBe(200);
    await expect.poll(log, { timeout: 180_000, interval: 100 }).toContain('job worker running');
    // A conversion is enough to have the worker's Chromium running; the first test prints as well.
    await convertInWorker(url, dataDir);
    const web = child.pid as number;
    const first = await workerTree(web);
    expect(first.chromium.length).toBeGreaterThan(0);

    const start = performance.now();
    process.kill(first.worker, 'SIGTERM');
    const took = await allGone([first.worker, ...first.chromium], start);
    expect(took).toBeLessThan(SHUTDOWN_BOUND_MS + EXIT_SLACK_MS);
    expect(alive(web)).toBe(true);
    // The web process starts another worker.
    await expect
      .poll(() => log().split('job worker running').length - 1, { timeout: 180_000, interval: 200 })
      .toBe(2);
    const second = await workerTree(web);
    expect(second.worker).not.toBe(first.worker);

    // Ctrl-C: SIGINT to the whole foreground process group at once.
    const interrupted = performance.now();
    process.kill(-web, 'SIGINT');
    expect(await exited, log()).toBe(0);
    expect(await allGone([web, second.worker], interrupted)).toBeLessThan(
      SHUTDOWN_BOUND_MS + EXIT_SLACK_MS,
    );
    expect(log()).not.toContain('shutdown bound reached');
  }, 400_000);

  it.each([
    ['SIGTERM to the `npm start` parent alone', 'parent', 'SIGTERM', 0],
    ['Ctrl-C (SIGINT to its whole process group)', 'group', 'SIGINT', 0],
    // npm runs the script under `sh -c`, which dies of the signal without passing it on; npm then
    // ends by the same signal (no exit code).
    ['SIGTERM to npm itself, as a deploy stops `npm start`', 'npm', 'SIGTERM', null],
  ] as const)(
    '%s stops the server and its worker within the bound',
    async (_name, target, signal, exitCode) => {
      const dataDir = await startedDataDir();
      const product = await startProduct(dataDir, target === 'npm');
      const { worker } = await workerTree(product.web);
      const parent = product.child.pid as number;
      // Under npm: the shell and start.mjs too.
      const tree = (await descendants(parent)).map((p) => p.pid);
      const start = performance.now();
      process.kill(target === 'group' ? -parent : parent, signal);
      expect(await product.exited, product.log()).toBe(exitCode);
      const took = await allGone([parent, product.web, worker, ...tree], start);
      expect(took).toBeLessThan(SHUTDOWN_BOUND_MS + EXIT_SLACK_MS);
      expect(product.log()).toContain(`"signal":"${signal}","msg":"shutting down"`);
      expect(product.log()).not.toContain('shutdown bound reached');
    },
    300_000,
  );
});
