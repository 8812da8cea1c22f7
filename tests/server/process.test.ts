import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../server/db/dataDirLock';
import { freePort } from '../fixtures/freePort';
import { firstStartedDataDir, startServerProcess } from './serverProcess';
import { entryArgs } from './entryArgs';

const run = promisify(execFile);

describe('the server process', () => {
  it('migrates a fresh data directory, serves /healthz, names its real port, and stops cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-process-'));
    const { child, port, log, exited, healthy } = await startServerProcess(
      dataDir,
      {},
      { script: entryArgs('server/main.ts') },
    );
    try {
      const health = await healthy();
      expect(health?.status).toBe(200);
      expect(await health?.json()).toEqual({ status: 'ok', database: 'pglite' });
      // With no PUBLIC_ORIGIN the start-up line (and every link) uses the real port.
      await expect
        .poll(() => log(), { timeout: 5000 })
        .toContain('Admission application listening');
      expect(log()).toContain(`listening on http://localhost:${port}`);
      expect(log()).not.toContain('localhost:3000');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it('stops the start in production on an http: public origin off this machine, naming it (D132)', async () => {
    const started = await run(process.execPath, entryArgs('server/main.ts'), {
      env: { ...process.env, NODE_ENV: 'production', PUBLIC_ORIGIN: 'http://apply.example.edu' },
    }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(started?.code).toBe(1);
    expect(started?.stderr).toMatch(/PUBLIC_ORIGIN: .*https.*got http:\/\/apply\.example\.edu/);
  }, 60_000);

  it('says in one line that the port is taken, exits 1, and leaves its data directory for the next start', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-port-taken-'));
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const failed = await run(process.execPath, entryArgs('server/main.ts'), {
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          PUBLIC_ORIGIN: '',
        },
      }).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      // One sentence, and nothing else on stderr.
      expect(failed?.stderr).toBe(
        `Port ${port} on 127.0.0.1 is already in use (is the product already running?): stop that process or start with another PORT.\n`,
      );
      // The embedded database was closed, not abandoned, and its lock released (D195): the next
      // start migrates and serves.
      expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
      const next = await startServerProcess(dataDir, {}, { script: entryArgs('server/main.ts') });
      try {
        expect((await next.healthy(90))?.status).toBe(200);
        next.child.kill('SIGTERM');
        expect(await next.exited).toBe(0);
      } finally {
        next.child.kill('SIGKILL');
      }
    } finally {
      taken.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);

  it('refuses a second start on a data directory in use, in one sentence, and the first serves on (D195)', async () => {
    const dataDir = await firstStartedDataDir('admission-two-starts-');
    const first = await startServerProcess(dataDir, {}, { script: entryArgs('server/main.ts') });
    try {
      expect((await first.healthy(180))?.status).toBe(200);
      const second = await run(process.execPath, entryArgs('server/main.ts'), {
        env: {
          ...process.env,
          PORT: String(await freePort()),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          PUBLIC_ORIGIN: '',
        },
        // Before the lock, the second start opened the directory too and served on.
        timeout: 120_000,
      }).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(second?.code).toBe(1);
      expect(second?.stderr).toBe(
        `The data directory ${dataDir} is in use by another process (pid ${first.child.pid}): stop that process, or start with another DATA_DIR.\n`,
      );
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    } finally {
      first.child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 400_000);
});
