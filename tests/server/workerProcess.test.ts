/**
 * Issue 19, D98: the job worker process (`npm run worker`, server/worker.ts) on one PostgreSQL. Real
 * processes run the real job kinds; the jobs are upload sweeps, whose effect (the stored file is
 * deleted) shows that a worker ran them. A worker killed with SIGKILL leaves its job to the next one
 * after the lease, and two workers side by side never run one job twice (each job's attempts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LocalStorage } from '../../server/storage/local';

const JOBS = 120;

describe.skipIf(!inject('postgresTemplate'))('the job worker process', () => {
  const url = new URL(process.env.TEST_DATABASE_URL as string);
  const name = `admission_worker_${process.pid}_${randomBytes(4).toString('hex')}`;
  let dataDir: string;
  let client: pg.Client;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
    await admin.end();
    url.pathname = `/${name}`;
    client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-worker-'));
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await client?.end();
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL as string });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function startWorker(): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/worker.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: url.toString(),
        DATA_DIR: dataDir,
        JOB_LEASE_SECONDS: '2',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await expect
      .poll(() => out, { timeout: 180_000, interval: 100 })
      .toContain('job worker running');
    return child;
  }

  /** Stores one file per job and queues its sweep; returns the files' paths. */
  async function queueSweeps(count: number): Promise<string[]> {
    const storage = new LocalStorage(dataDir, randomBytes(32), () => new Date());
    const files: string[] = [];
    const now = new Date().toISOString();
    for (let i = 0; i < count; i++) {
      const key = `uploads/${randomUUID()}`;
      await storage.put(key, Buffer.from('not held by any document'));
      files.push(path.join(dataDir, 'objects', key));
      const payload = { tenantId: 'northfield', userId: randomUUID(), fileKey: key };
      await client.query(
        `INSERT INTO jobs (kind, payload, max_attempts, run_after, created_at, updated_at) VALUES ('upload-sweep', $1, 3, $2, $2, $2)`,
        [payload, now],
      );
    }
    return files;
  }

  const attempts = async () =>
    (
      await client.query<{ status: string; attempts: number }>(
        `SELECT status, attempts FROM jobs WHERE kind = 'upload-sweep'`,
      )
    ).rows;

  it('two workers side by side run every job once', async () => {
    const files = await queueSweeps(JOBS);
    await Promise.all([startWorker(), startWorker()]);
    await expect
      .poll(async () => (await attempts()).filter((job) => job.status === 'done').length, {
        timeout: 120_000,
        interval: 200,
      })
      .toBe(JOBS);
    expect((await attempts()).every((job) => job.attempts === 1)).toBe(true);
    expect(files.filter((file) => existsSync(file))).toEqual([]);
    for (const child of children.splice(0)) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }, 400_000);

  it('takes up again the jobs of a worker killed with SIGKILL', async () => {
    await client.query(`DELETE FROM jobs`);
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
    await expect
      .poll(async () => (await attempts()).filter((job) => job.status === 'done').length, {
        timeout: 120_000,
        interval: 200,
      })
      .toBe(JOBS);
    expect(files.filter((file) => existsSync(file))).toEqual([]);
  }, 400_000);
});
