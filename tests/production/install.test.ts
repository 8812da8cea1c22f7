/**
 * The production path of docs/operations.md (D141), as a college's IT runs it on a fresh clone:
 * `npm ci`, `npm run build`, `npm prune --omit=dev`, then `NODE_ENV=production npm start`, with every
 * devDependency gone (no tsx, no Vite). The product then serves a whole applicant's flow: sign up,
 * save, upload a PNG, submit, the application PDF printed by its worker, the receipt mailed.
 *
 * Slow (an install and a build): minutes. The clone is the working tree's files as git would commit
 * them (tracked and new files, not ignored ones), so uncommitted work is what is tested.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, renameSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validApplication } from '../definitions/fixtures';
import { nodeVersionVerdict } from '../../scripts/nodeVersion.mjs';
import { freePort } from '../fixtures/freePort';
import { png } from '../server/documentFiles';
import { submitFile, waitForPdf } from '../server/documentUploads';
import { loggedInOverHttp, type OutboxMessage, type TestServer } from '../server/harness';
import { descendants } from '../server/processTree';

const RECEIPT_SUBJECT = 'we received your application';
/** devDependencies whose absence shows the prune happened (the build and test tools). */
const DEV_TOOLS = ['vite', 'tsx', 'esbuild', 'vitest', 'typescript'];

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** This environment without what the running npm and Vitest set (NODE_ENV=test, npm's script). */
function operatorEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        !/^(npm_(?!config_)|VITEST|TEST_)/i.test(name) &&
        !['NODE_ENV', 'NODE_OPTIONS', 'DATABASE_URL', 'DATA_DIR', 'PORT'].includes(name),
    ),
  );
  return { ...env, ...extra };
}

/** Runs a command in `cwd` and returns how long it took (seconds); fails with its output. */
function timed(cwd: string, command: string, args: string[], env = operatorEnv()): number {
  const start = performance.now();
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return Math.round((performance.now() - start) / 100) / 10;
}

const sizeMb = (dir: string) =>
  Math.round(Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]) / 1024);

/** The working tree's files as a fresh clone of it would have them. */
function cloneWorkingTree(target: string): void {
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    },
  )
    .split('\0')
    .filter((file) => file && existsSync(file));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    cpSync(file, path.join(target, file), { verbatimSymlinks: true });
  }
}

async function outbox(dataDir: string): Promise<OutboxMessage[]> {
  const text = await readFile(path.join(dataDir, 'outbox.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as OutboxMessage);
}

describe('the production install (npm ci, build, prune, NODE_ENV=production npm start)', () => {
  it('serves sign-up, save, a PNG upload, submit, the PDF and the receipt with no devDependency installed', async () => {
    const clone = await tempDir('admission-clone-');
    const dataDir = await tempDir('admission-prod-data-');
    cloneWorkingTree(clone);

    const npmCi = timed(clone, 'npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund']);
    const before = sizeMb(path.join(clone, 'node_modules'));
    const build = timed(clone, 'npm', ['run', 'build']);
    const prune = timed(clone, 'npm', ['prune', '--omit=dev', '--no-audit', '--no-fund']);
    const after = sizeMb(path.join(clone, 'node_modules'));
    console.info(
      `production install: npm ci ${npmCi} s, npm run build ${build} s, npm prune ${prune} s; ` +
        `node_modules ${before} MB before the prune, ${after} MB after`,
    );
    for (const tool of DEV_TOOLS)
      expect(existsSync(path.join(clone, 'node_modules', tool)), tool).toBe(false);
    expect(existsSync(path.join(clone, 'node_modules/playwright-core'))).toBe(true);

    // Without its build, a pruned install says in one line what to run.
    renameSync(path.join(clone, 'dist'), path.join(clone, 'dist.kept'));
    const unbuilt = spawnSync(process.execPath, ['scripts/start.mjs'], {
      cwd: clone,
      env: operatorEnv({ NODE_ENV: 'production' }),
      encoding: 'utf8',
    });
    renameSync(path.join(clone, 'dist.kept'), path.join(clone, 'dist'));
    expect(unbuilt.status).toBe(1);
    // (Past its end of life, Node 20 adds its own one-line warning first, D200.)
    const notices = unbuilt.stderr.trim().split('\n');
    const nodeWarning = nodeVersionVerdict(process.versions.node).warning;
    expect(notices.filter((line) => line !== nodeWarning)).toHaveLength(1);
    expect(unbuilt.stderr).toContain('npm ci && npm run build');

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn('npm', ['start'], {
      cwd: clone,
      env: operatorEnv({
        NODE_ENV: 'production',
        PORT: String(port),
        PUBLIC_ORIGIN: `http://localhost:${port}`,
        DATA_DIR: dataDir,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    cleanups.push(async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(-(child.pid as number), 'SIGTERM');
      await exited;
    });
    await expect
      .poll(() => log, { timeout: 240_000, interval: 200 })
      .toContain('job worker running');
    // The web process and its worker run from the bundles (tsx is not even installed).
    const commands = (await descendants(child.pid as number)).map((p) => p.command);
    expect(commands.some((c) => c.includes('dist/server/main.js'))).toBe(true);
    expect(commands.some((c) => c.includes('dist/server/worker.js'))).toBe(true);

    // The built app is served.
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script type="module"');

    const email = 'production@example.com';
    const client = await loggedInOverHttp(url, dataDir, email);
    expect((await client.put('/api/answer', validApplication)).status).toBe(200);
    const transcript = await submitFile({ url } as TestServer, client, 'transcript.png', png());
    expect(transcript.settled.status).toBe('COMPLETED');
    expect((await client.put('/api/answer', { transcript_file: 'ANSWERED' })).status).toBe(200);
    expect((await client.post('/api/submit', {})).status).toBe(200);
    const ready = await waitForPdf(client);
    expect(ready.status).toBe('COMPLETED');
    const file = await client.get(ready.url as string);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    await expect
      .poll(async () =>
        (await outbox(dataDir)).filter(
          (mail) => mail.to === email && mail.subject.includes(RECEIPT_SUBJECT),
        ),
      )
      .toHaveLength(1);
  }, 1_500_000);
});
