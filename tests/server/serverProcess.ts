/**
 * `server/main.ts` as its own process, as `npm start` runs it, for the suites that need a real one;
 * or, with `script`, `npm start` itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, inject } from 'vitest';
import { freePort } from '../fixtures/freePort';
import { madeOnce } from '../fixtures/madeOnce';
import { entryArgs } from './entryArgs';

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly url: string;
  /** What the process has written to stdout so far. */
  log(): string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
  /** Waits (up to `seconds`) for /healthz to answer; the answer, or null. */
  healthy(seconds?: number): Promise<Response | null>;
}

export async function startServerProcess(
  dataDir: string,
  env: NodeJS.ProcessEnv = {},
  {
    detached = false,
    script = ['--import', 'tsx', 'server/main.ts'],
    cwd,
  }: {
    /** In its own process group, as a terminal runs a command (a test may then send what Ctrl-C sends). */
    detached?: boolean;
    /** What node runs, from `cwd` (default: this process's directory). */
    script?: string[];
    cwd?: string;
  } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, script, {
    cwd,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      PUBLIC_ORIGIN: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached,
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const healthy = async (seconds = 120) => {
    for (let i = 0; i < seconds * 10; i++) {
      const health = await fetch(`${url}/healthz`).catch(() => null);
      if (health) return health;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return null;
  };
  return { child, port, url, log: () => log, exited, healthy };
}

/**
 * A new data directory holding what a first start on PGlite leaves (the migrations applied, the
 * example tenants seeded, the secrets made), copied from one made once per run beside the server's
 * bundle: a process started on it skips the migrations, about 4 s of a start. Suites about the first
 * start itself (tests/server/process.test.ts) use an empty directory.
 */
export async function firstStartedDataDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await cp(await firstStartTemplate(), dir, { recursive: true });
  return dir;
}

let template: Promise<string> | undefined;

/** Made by the first file that asks, for every file of the run (they run in parallel). */
function firstStartTemplate(): Promise<string> {
  template ??= madeOnce(path.join(inject('serverBundle'), 'first-start-data'), async (staging) => {
    const server = await startServerProcess(
      staging,
      { JOB_WORKER: '' },
      { script: entryArgs('server/main.ts') },
    );
    await expect
      .poll(server.log, { timeout: 180_000, interval: 100 })
      .toContain('job worker running');
    server.child.kill('SIGTERM');
    expect(await server.exited, server.log()).toBe(0);
  });
  return template;
}
