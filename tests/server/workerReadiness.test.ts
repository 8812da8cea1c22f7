/**
 * `/readyz`'s worker check (D195): `starting` while the job worker the server started itself is on
 * its way, `failed` only once it has failed (it exited before it ran, it ran and no longer beats,
 * or it took longer than `WORKER_START_MS`), `ok` while a worker beats.
 */
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../server/db/client';
import { JobQueue } from '../../server/jobs/queue';
import { WORKER_START_MS, WorkerProcess } from '../../server/jobs/workerProcess';
import { ReadinessCheck } from '../../server/operations/readiness';
import { entryArgs } from './entryArgs';
import { openTestDatabase } from './harness';
import { firstStartedDataDir, startServerProcess, type ServerProcess } from './serverProcess';

/** Makes the worker process slow to start, or unable to (tests/fixtures/workerStart.cjs). */
const PRELOAD = `--require ${fileURLToPath(new URL('../fixtures/workerStart.cjs', import.meta.url))}`;

describe('the worker check', () => {
  let handle: DatabaseHandle;
  const check = (starting: () => boolean) =>
    new ReadinessCheck(handle.db, () => new Date(), starting).check();
  beforeAll(async () => {
    ({ handle } = await openTestDatabase('pglite'));
  });
  afterAll(async () => handle?.close());

  it(
    'says starting while this process has a worker on its way, and failed when it has none',
    { timeout: 60_000 },
    async () => {
      expect(await check(() => true)).toEqual({
        ready: false,
        checks: { database: 'ok', migrations: 'ok', worker: 'starting' },
      });
      expect(await check(() => false)).toEqual({
        ready: false,
        checks: { database: 'ok', migrations: 'ok', worker: 'failed' },
      });
    },
  );

  it('of a worker loop in this process: starting until its first beat; once stopped, failed', async () => {
    const queue = new JobQueue(handle.db, { now: () => new Date() });
    const ofQueue = () => check(() => queue.heartbeat.starting);
    expect(queue.heartbeat.starting).toBe(false);
    queue.start();
    expect(queue.heartbeat.starting).toBe(true);
    await queue.heartbeat.firstBeat();
    expect(queue.heartbeat.starting).toBe(false);
    expect(await ofQueue()).toMatchObject({ ready: true, checks: { worker: 'ok' } });
    await queue.stop();
    expect((await ofQueue()).checks.worker).toBe('failed');
    // Started again after a stop, it is not taken for starting: until it beats, there is none.
    queue.start();
    expect(queue.heartbeat.starting).toBe(false);
    await queue.stop();
  });

  it('of a worker process: starting while it starts (within its bound); failed once it exits before running', async () => {
    const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
    const slow = new WorkerProcess(handle, log, {
      ...process.env,
      NODE_OPTIONS: PRELOAD,
      TEST_WORKER_DELAY_MS: '60000',
    });
    expect(slow.starting()).toBe(false);
    slow.start();
    try {
      expect(slow.starting()).toBe(true);
      expect(slow.starting(Date.now() + WORKER_START_MS)).toBe(false);
    } finally {
      await slow.stop();
    }
    expect(slow.starting()).toBe(false);

    const failing = new WorkerProcess(handle, log, {
      ...process.env,
      NODE_OPTIONS: PRELOAD,
      TEST_WORKER_FAIL: '1',
    });
    failing.start();
    try {
      expect(failing.starting()).toBe(true);
      await expect.poll(() => failing.starting(), { timeout: 60_000 }).toBe(false);
      // Started again (a second after each exit), it is still the worker that failed.
      await expect.poll(() => failing.starts, { timeout: 60_000 }).toBeGreaterThan(1);
      expect(failing.starting()).toBe(false);
    } finally {
      await failing.stop();
    }
  }, 150_000);
});

/** The worker check of one /readyz answer, with its status. */
async function readyz(server: ServerProcess): Promise<{ status: number; worker: string }> {
  const response = await fetch(`${server.url}/readyz`);
  const body = (await response.json()) as { checks: { worker: string } };
  return { status: response.status, worker: body.checks.worker };
}

describe('/readyz of a server process', () => {
  const dataDirs: string[] = [];
  afterAll(async () => {
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  /** A server on a data directory a first start made, its worker changed by `env`. */
  async function started(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
    const dataDir = await firstStartedDataDir('admission-readyz-');
    dataDirs.push(dataDir);
    const server = await startServerProcess(
      dataDir,
      { NODE_OPTIONS: PRELOAD, ...env },
      { script: entryArgs('server/main.ts') },
    );
    expect((await server.healthy(180))?.status).toBe(200);
    return server;
  }

  it('answers 503 with worker starting while its worker starts, then 200, never failed', async () => {
    const server = await started({ TEST_WORKER_DELAY_MS: '8000' });
    try {
      const first = await fetch(`${server.url}/readyz`);
      expect(first.status).toBe(503);
      expect(await first.json()).toEqual({
        status: 'not ready',
        checks: { database: 'ok', migrations: 'ok', worker: 'starting' },
      });
      const seen = new Set<string>();
      await expect
        .poll(
          async () => {
            const { worker } = await readyz(server);
            seen.add(worker);
            return worker;
          },
          { timeout: 150_000, interval: 250 },
        )
        .toBe('ok');
      expect((await readyz(server)).status).toBe(200);
      expect([...seen]).not.toContain('failed');
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 400_000);

  it('answers 503 with worker failed when its worker cannot start', async () => {
    const server = await started({ TEST_WORKER_FAIL: '1' });
    try {
      await expect
        .poll(async () => (await readyz(server)).worker, { timeout: 60_000, interval: 250 })
        .toBe('failed');
      // Started again and again, it stays failed.
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 700));
        expect(await readyz(server)).toEqual({ status: 503, worker: 'failed' });
      }
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 400_000);
});
