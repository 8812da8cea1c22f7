import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../fixtures/freePort';
import { describe, expect, it } from 'vitest';

describe('the server process', () => {
  it('migrates a fresh data directory, serves /healthz, names its real port, and stops cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-process-'));
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        DATABASE_URL: '',
        PUBLIC_ORIGIN: '',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    try {
      let health: Response | null = null;
      for (let i = 0; i < 450 && !health; i++) {
        health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
        if (!health) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(health?.status).toBe(200);
      expect(await health?.json()).toEqual({ status: 'ok', database: 'pglite' });
      // Issue 14: with no PUBLIC_ORIGIN the start-up line (and every link) uses the real port.
      await expect.poll(() => log, { timeout: 5000 }).toContain('Admission application listening');
      expect(log).toContain(`listening on http://localhost:${port}`);
      expect(log).not.toContain('localhost:3000');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
