import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from './serverProcess';

describe('the server process', () => {
  it('migrates a fresh data directory, serves /healthz, names its real port, and stops cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-process-'));
    const { child, port, log, exited, healthy } = await startServerProcess(dataDir);
    try {
      const health = await healthy();
      expect(health?.status).toBe(200);
      expect(await health?.json()).toEqual({ status: 'ok', database: 'pglite' });
      // Issue 14: with no PUBLIC_ORIGIN the start-up line (and every link) uses the real port.
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
  }, 90_000);
});
