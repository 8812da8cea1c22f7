/**
 * The job worker process (server/worker.ts) under test, on either database: real processes run the
 * real job kinds on upload sweeps, whose effect (the stored file is deleted) shows a worker ran them.
 * The two suites (workerProcess.test.ts on PostgreSQL, workerProcessPglite.test.ts on PGlite over
 * IPC) share the scenarios: two workers side by side run every job once, and the jobs of a worker
 * killed with SIGKILL are taken up again by the next. `workerScenarios` adds them as tests of the
 * suite that calls it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { HEARTBEAT_STATUS } from '../../server/jobs/heartbeat';
import { LocalStorage, unretiredKeyring } from '../../server/storage/local';
import { DEFAULT_TENANT_SEED } from '../../server/tenants';
import { entryArgs } from './entryArgs';

export const JOBS = 120;
/** Short, so that a killed worker's jobs come back within the test. */
const LEASE_SECONDS = '2';

export interface WorkerBackend {
  readonly dataDir: string;
  /** The worker's database in its environment (DATABASE_URL, or the IPC flag). */
  readonly env: NodeJS.ProcessEnv;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Called with each worker started (PGlite: answer its statements). */
  attach?(child: ChildProcess): void;
}

/** Each scenario starts workers (up to 3 min each on a loaded machine) and waits for every job. */
const SCENARIO_TIMEOUT_MS = 400_000;

/** Adds the scenarios as tests of the calling suite; its afterAll calls `killAll` first. */
export function workerScenarios(backend: () => WorkerBackend) {
  const children: ChildProcess[] = [];

  async function startWorker(): Promise<ChildProcess> {
    const { env, dataDir, attach } = backend();
    const child = spawn(process.execPath, entryArgs('server/worker.ts'), {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        JOB_LEASE_SECONDS: LEASE_SECONDS,
        LOG_LEVEL: 'info',
        ...env,
      },
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    children.push(child);
    attach?.(child);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await expect
      .poll(() => out, { timeout: 180_000, interval: 100 })
      .toContain('job worker running');
    return child;
  }

  /** Stores one file per job and queues its sweep; returns the files' paths. */
  async function queueSweeps(count: number): Promise<string[]> {
    const { dataDir, query } = backend();
    const secret = randomBytes(32);
    const storage = new LocalStorage(
      dataDir,
      randomBytes(32),
      () => new Date(),
      unretiredKeyring(async () => ({ version: 1, objects: secret })),
    );
    const files: string[] = [];
    const now = new Date().toISOString();
    for (let i = 0; i < count; i++) {
      const key = `uploads/${randomUUID()}`;
      await storage.put(key, Buffer.from('not held by any document'));
      files.push(path.join(dataDir, 'objects', key));
      const payload = { tenantId: DEFAULT_TENANT_SEED.id, userId: randomUUID(), fileKey: key };
      await query(
        `INSERT INTO jobs (kind, payload, max_attempts, run_after, created_at, updated_at) VALUES ('upload-sweep', $1, 3, $2, $2, $2)`,
        [payload, now],
      );
    }
    return files;
  }

  const attempts = () =>
    backend().query<{ status: string; attempts: number }>(
      `SELECT status, attempts FROM jobs WHERE kind = 'upload-sweep'`,
    );
  const heartbeats = async () =>
    (
      await backend().query<{ n: number }>(
        `SELECT count(*)::int AS n FROM jobs WHERE status = '${HEARTBEAT_STATUS}'`,
      )
    )[0]?.n;
  const done = async () => (await attempts()).filter((job) => job.status === 'done').length;

  async function stopAll(): Promise<void> {
    for (const child of children.splice(0)) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }

  it(
    'two workers side by side run every job once',
    async () => {
      const files = await queueSweeps(JOBS);
      await Promise.all([startWorker(), startWorker()]);
      await expect.poll(done, { timeout: 120_000, interval: 200 }).toBe(JOBS);
      expect((await attempts()).every((job) => job.attempts === 1)).toBe(true);
      expect(files.filter((file) => existsSync(file))).toEqual([]);
      // Each running worker beats (D139: what /readyz reads), and takes its heartbeat along on a stop.
      expect(await heartbeats()).toBe(2);
      await stopAll();
      expect(await heartbeats()).toBe(0);
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    'takes up again the jobs of a worker killed with SIGKILL',
    async () => {
      await backend().query(`DELETE FROM jobs`);
      const first = await startWorker();
      const files = await queueSweeps(JOBS);
      // Killed while it works through them.
      await expect
        .poll(() => files.filter((file) => !existsSync(file)).length, {
          timeout: 60_000,
          interval: 20,
        })
        .toBeGreaterThan(0);
      first.kill('SIGKILL');
      await new Promise((resolve) => first.once('exit', resolve));
      const left = (await attempts()).filter((job) => job.status !== 'done').length;
      expect(left).toBeGreaterThan(0);
      await startWorker();
      await expect.poll(done, { timeout: 120_000, interval: 200 }).toBe(JOBS);
      expect(files.filter((file) => existsSync(file))).toEqual([]);
      await stopAll();
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    'sweeps retention (in transactions): deletes an account past its window, reminds one near it',
    async () => {
      const { query } = backend();
      await query(`DELETE FROM jobs`);
      const tenant = DEFAULT_TENANT_SEED.id;
      // On PostgreSQL the test's connection reads and writes accounts as that tenant (RLS).
      await query(`SELECT set_config('app.tenant_id', $1, false)`, [tenant]);
      const monthsAgo = (months: number, days = 0) => {
        const at = new Date();
        at.setUTCMonth(at.getUTCMonth() - months);
        return new Date(at.getTime() - days * 86_400_000).toISOString();
      };
      const account = async (email: string, createdAt: string, remindedAt: string | null) =>
        (
          await query<{ id: string }>(
            `INSERT INTO users (tenant_id, email, password_hash, created_at, retention_reminded_at)
             VALUES ($1, $2, 'not a hash', $3, $4) RETURNING id`,
            [tenant, email, createdAt, remindedAt],
          )
        )[0]!.id;
      const stale = await account(`stale-${randomUUID()}@example.com`, monthsAgo(24), monthsAgo(2));
      const near = await account(`near-${randomUUID()}@example.com`, monthsAgo(17, 10), null);
      await query(
        `INSERT INTO jobs (kind, payload, max_attempts, run_after, created_at, updated_at) VALUES ('retention-sweep', '{}', 1, $1, $1, $1)`,
        [new Date().toISOString()],
      );
      await startWorker();
      const sweeps = () =>
        query<{ status: string }>(
          `SELECT status FROM jobs WHERE kind = 'retention-sweep' AND status <> 'queued'`,
        );
      await expect
        .poll(async () => (await sweeps()).map((job) => job.status), { timeout: 60_000 })
        .toEqual(['done']);
      const left = await query<{ id: string; reminded: boolean }>(
        `SELECT id, retention_reminded_at IS NOT NULL AS reminded FROM users WHERE id IN ($1, $2)`,
        [stale, near],
      );
      expect(left).toEqual([{ id: near, reminded: true }]);
      await stopAll();
    },
    SCENARIO_TIMEOUT_MS,
  );

  return {
    killAll: () => {
      for (const child of children) child.kill('SIGKILL');
    },
  };
}
