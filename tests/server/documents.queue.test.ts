/**
 * The durable job queue: every status transition of a conversion seen through the API, a worker that
 * dies in the middle of a conversion (its job resumes after the lease on a restarted server), retries,
 * a crashed Chromium, and, on PostgreSQL, two worker processes that take each job exactly once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { documentMessages, serverMessages } from '../../contract';
import { ConversionSandbox } from '../../server/conversion/sandbox';
import { buildServer } from '../../server/app';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { JobQueue, type Job } from '../../server/jobs/queue';
import { ChromiumPrinter } from '../../server/pdf/chromium';
import {
  conversionJob,
  CONVERSION_JOB,
  type DocumentsContext,
} from '../../server/documents';
import type { ObjectStorage } from '../../server/storage/storage';
import { docx, png } from './documentFiles';
import { registeredClient, startServer, type Client, type TestServer } from './harness';
import { dropDatabase } from './dropDatabase';
import { onPostgres } from './postgresOnly';

const KEY = 'transcript_file';
const LEASE_MS = 60_000;

async function uploadAndQueue(server: TestServer, client: Client, name: string, bytes: Buffer) {
  const presigned = (await client.post('/api/presigned-url', { answer_key: KEY })).body as {
    url: string;
    fields: Record<string, string>;
  };
  const form = new FormData();
  for (const [field, value] of Object.entries(presigned.fields)) form.append(field, value);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  const uploaded = await fetch(new URL(presigned.url, server.url), { method: 'POST', body: form });
  expect(uploaded.status).toBe(204);
  const queued = await client.post(`/api/pdf/document-answer/${KEY}`, {
    file_key: presigned.fields.key,
    file_name: name,
  });
  expect(queued.status).toBe(202);
}

/** The same storage with another `get` (the adapters are classes: methods live on the prototype). */
function withGet(storage: ObjectStorage, get: ObjectStorage['get']): ObjectStorage {
  return Object.assign(Object.create(storage) as ObjectStorage, { get });
}

const status = async (client: Client) =>
  (await client.get(`/api/pdf/document-answer/${KEY}`)).body.status as string;

/** Resolves when a child process writes `line` on its stdout. */
function said(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (seen.split('\n').includes(line)) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`worker process exited (${code}) before "${line}"`)),
    );
  });
}

async function eventually(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('conversion jobs', () => {
  let server: TestServer;
  let applicant: Client;
  beforeAll(async () => {
    server = await startServer({ config: { jobs: { pollMs: 50, leaseMs: LEASE_MS } } });
    // Signed up while the server's worker still sends mail (D138): the confirmation code is a job.
    applicant = await registeredClient(server, 'queue@example.com');
    // The server's own worker is stopped: the tests drive workers themselves.
    await server.built.documents.queue.stop();
  }, 60_000);
  afterAll(async () => server?.close());

  it('goes NOT_ANSWERED → UNPROCESSED → IN_PROGRESS → (worker dies) → COMPLETED after a restart, and back to NOT_ANSWERED', async () => {
    expect(await status(applicant)).toBe('NOT_ANSWERED');
    await uploadAndQueue(server, applicant, 'scan.png', png());
    expect((await applicant.get(`/api/pdf/document-answer/${KEY}`)).body).toEqual({
      status: 'UNPROCESSED',
      message: documentMessages.unprocessed,
      error: null,
    });

    // A worker process that claims the job, starts converting and dies (its storage read never returns).
    const docs = server.built.documents;
    const dying: DocumentsContext = {
      ...docs,
      storage: withGet(docs.storage, () => new Promise<never>(() => undefined)),
    };
    const crashed = new JobQueue(docs.db, { now: server.clock.now, leaseMs: LEASE_MS });
    crashed.register(CONVERSION_JOB, conversionJob(dying));
    void crashed.runOnce();
    await eventually(async () => (await status(applicant)) === 'IN_PROGRESS', 'IN_PROGRESS');
    expect((await applicant.get(`/api/pdf/document-answer/${KEY}`)).body.message).toBe(
      documentMessages.inProgress,
    );

    // The server restarts on the same database and port; its worker leaves the job alone while the
    // lease holds…
    const port = Number(new URL(server.url).port);
    await server.built.app.close();
    http.globalAgent.destroy(); // the client's kept-alive sockets went with the old server
    const restarted = await buildServer(server.built.context.config, {
      database: server.built.database,
      startWorker: false,
    });
    await restarted.app.listen({ host: '127.0.0.1', port });
    // The harness closes (and the tests below use) the restarted server.
    Object.assign(server.built, { app: restarted.app, documents: restarted.documents });
    const worker = restarted.documents.queue;
    expect(await worker.runOnce()).toBe(false);
    expect(await status(applicant)).toBe('IN_PROGRESS');
    // …and resumes it once the lease has run out.
    server.clock.advance(LEASE_MS + 1);
    expect(await worker.runOnce()).toBe(true);
    expect((await applicant.get(`/api/pdf/document-answer/${KEY}`)).body).toEqual({
      status: 'COMPLETED',
      message: documentMessages.completed,
      error: null,
    });
    expect((await applicant.get('/api/document-answer')).body[KEY]?.file_name).toBe('scan.png');
    await applicant.request('DELETE', `/api/pdf/document-answer/${KEY}`, {});
    expect(await status(applicant)).toBe('NOT_ANSWERED');
    await applicant.request('DELETE', `/api/document-answer/${KEY}`, {});
  });

  it('retries a job that throws, then ends FAILED with the generic conversion message', async () => {
    await uploadAndQueue(server, applicant, 'retry.png', png());
    const docs = server.built.documents;
    let calls = 0;
    const failing: DocumentsContext = {
      ...docs,
      storage: withGet(docs.storage, async () => {
        calls += 1;
        throw new Error('storage unavailable');
      }),
    };
    const worker = new JobQueue(docs.db, { now: server.clock.now, retryDelayMs: 1000 });
    worker.register(CONVERSION_JOB, conversionJob(failing));
    expect(await worker.runOnce()).toBe(true);
    expect(await status(applicant)).toBe('IN_PROGRESS');
    expect(await worker.runOnce()).toBe(false); // not due yet
    server.clock.advance(1000);
    expect(await worker.runOnce()).toBe(true);
    server.clock.advance(2000);
    expect(await worker.runOnce()).toBe(true);
    expect(calls).toBe(3);
    expect((await applicant.get(`/api/pdf/document-answer/${KEY}`)).body).toEqual({
      status: 'FAILED',
      message: documentMessages.conversionFailed,
      error: documentMessages.conversionFailed,
      file_name: 'retry.png',
    });
    await applicant.request('DELETE', `/api/document-answer/${KEY}`, {});
  });

  it('a newer upload wins over a late job for the older file', async () => {
    await uploadAndQueue(server, applicant, 'older.png', png());
    await uploadAndQueue(server, applicant, 'newer.png', png(10, 10));
    const worker = server.built.documents.queue;
    while (await worker.runOnce());
    expect(await status(applicant)).toBe('COMPLETED');
    expect((await applicant.get('/api/document-answer')).body[KEY]?.file_name).toBe('newer.png');
    await applicant.request('DELETE', `/api/document-answer/${KEY}`, {});
  });

  it('relaunches a crashed Chromium and converts the docx', async () => {
    const printer = new ChromiumPrinter();
    try {
      const first = await printer.htmlToPdf('<p>warm</p>');
      expect(first.subarray(0, 5).toString()).toBe('%PDF-');
      await printer.crashForTest();
      const again = await printer.htmlToPdf('<p>after the crash</p>');
      expect(again.subarray(0, 5).toString()).toBe('%PDF-');
      expect(printer.launches).toBe(2);
    } finally {
      await printer.close();
    }
    // And through the queue, with the server's printer.
    await uploadAndQueue(server, applicant, 'essay.docx', await docx());
    await server.built.documents.printer.crashForTest();
    expect(await server.built.documents.queue.runOnce()).toBe(true);
    expect(await status(applicant)).toBe('COMPLETED');
    await applicant.request('DELETE', `/api/document-answer/${KEY}`, {});
  }, 60_000);
});

const TWO_WORKERS = 'two worker processes on one PostgreSQL';

describe.runIf(onPostgres(TWO_WORKERS))(TWO_WORKERS, () => {
  let name: string;
  let handles: DatabaseHandle[] = [];
  beforeAll(async () => {
    const url = process.env.TEST_DATABASE_URL as string;
    name = `admission_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
    await admin.end();
    const databaseUrl = new URL(url);
    databaseUrl.pathname = `/${name}`;
    // Two pools, as two server processes would have.
    handles = [
      await openDatabase({ databaseUrl: databaseUrl.toString(), migrated: true }),
      await openDatabase({ databaseUrl: databaseUrl.toString(), migrated: true }),
    ];
  });
  afterAll(async () => {
    for (const handle of handles) await handle.close();
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await dropDatabase((statement) => admin.query(statement), name);
    await admin.end();
  });

  it('two pools (as two processes have): each of 60 jobs runs exactly once, spread over both', async () => {
    const runs = new Map<number, string[]>();
    let concurrent = 0;
    let maxConcurrent = 0;
    const workers = handles.map((handle, index) => {
      const queue = new JobQueue(handle.db, { now: () => new Date(), pollMs: 10 });
      queue.register('count', {
        async run(job: Job) {
          concurrent += 1;
          maxConcurrent = Math.max(maxConcurrent, concurrent);
          runs.set(job.id, [...(runs.get(job.id) ?? []), `worker-${index}`]);
          await new Promise((resolve) => setTimeout(resolve, 5));
          concurrent -= 1;
        },
      });
      return queue;
    });
    const ids: number[] = [];
    for (let i = 0; i < 60; i++) ids.push(await workers[i % 2]!.enqueue('count', { i }));
    for (const worker of workers) worker.start();
    await eventually(async () => runs.size === 60, 'all jobs');
    await Promise.all(workers.map((worker) => worker.stop()));
    expect([...runs.keys()].sort((a, b) => a - b)).toEqual(ids);
    expect([...runs.values()].every((who) => who.length === 1)).toBe(true);
    const byWorker = [...runs.values()].flat();
    expect(byWorker.filter((who) => who === 'worker-0').length).toBeGreaterThan(0);
    expect(byWorker.filter((who) => who === 'worker-1').length).toBeGreaterThan(0);
    expect(maxConcurrent).toBeLessThanOrEqual(2);
    const pool = new pg.Client({
      connectionString: (() => {
        const u = new URL(process.env.TEST_DATABASE_URL as string);
        u.pathname = `/${name}`;
        return u.toString();
      })(),
    });
    await pool.connect();
    const { rows } = await pool.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM jobs',
    );
    await pool.end();
    expect(rows).toHaveLength(60);
    expect(rows.every((row) => row.status === 'done' && row.attempts === 1)).toBe(true);
  });

  it('two real processes: each of 60 jobs runs exactly once, and both processes take some', async () => {
    const databaseUrl = new URL(process.env.TEST_DATABASE_URL as string);
    databaseUrl.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: databaseUrl.toString() });
    await client.connect();
    const workers: ChildProcess[] = [];
    try {
      await client.query('CREATE TABLE queue_runs (job_id integer NOT NULL, worker text NOT NULL)');
      const producer = new JobQueue(handles[0]!.db, { now: () => new Date() });
      const ids: number[] = [];
      for (let i = 0; i < 60; i++) ids.push(await producer.enqueue('count', { round: 2, i }));

      for (const worker of ['process-a', 'process-b'])
        workers.push(
          spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/queueWorker.ts'], {
            env: { ...process.env, DATABASE_URL: databaseUrl.toString(), WORKER_NAME: worker },
            stdio: ['pipe', 'pipe', 'inherit'],
          }),
        );
      // Both connected before either claims, so neither gets every job by starting first.
      await Promise.all(workers.map((child) => said(child, 'ready')));
      for (const child of workers) child.stdin?.write('go\n');
      await eventually(
        async () =>
          (await client.query('SELECT count(*)::int AS n FROM queue_runs')).rows[0].n >= 60,
        'both processes to run every job',
      );
      await Promise.all(
        workers.map((child) => {
          const stopped = said(child, 'stopped');
          child.stdin?.write('stop\n');
          return stopped;
        }),
      );

      const { rows: runs } = await client.query<{ job_id: number; worker: string }>(
        'SELECT job_id, worker FROM queue_runs ORDER BY job_id',
      );
      expect(runs.map((run) => run.job_id)).toEqual(ids);
      expect(new Set(runs.map((run) => run.worker))).toEqual(new Set(['process-a', 'process-b']));
      const { rows: jobs } = await client.query<{ status: string; attempts: number }>(
        'SELECT status, attempts FROM jobs WHERE id = ANY($1)',
        [ids],
      );
      expect(jobs.every((job) => job.status === 'done' && job.attempts === 1)).toBe(true);
    } finally {
      for (const child of workers) if (child.exitCode === null) child.kill('SIGKILL');
      await client.end();
    }
  }, 90_000);
});

describe('the conversion sandbox (worker thread)', () => {
  it('converts in the worker, and a conversion past its limit ends timed out and replaces the worker', async () => {
    const sandbox = new ConversionSandbox();
    try {
      const converted = await sandbox.run(png(), 'scan.png', 30_000);
      expect(converted.ok && 'pdf' in converted).toBe(true);
      const refused = await sandbox.run(png(), 'scan.pdf', 30_000);
      expect(refused).toEqual({ ok: false, message: documentMessages.contentMismatch });
      expect(sandbox.started).toBe(1);

      const slow = await sandbox.run(await docx(), 'slow.docx', 1);
      expect(slow).toEqual({ ok: false, message: documentMessages.timedOut });
      const after = await sandbox.run(png(), 'again.png', 30_000);
      expect(after.ok).toBe(true);
      expect(sandbox.started).toBe(2);
    } finally {
      await sandbox.close();
    }
  }, 60_000);
});

describe('anti-automation', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ config: { publicRateLimit: 2 } });
  }, 60_000);
  afterAll(async () => server?.close());

  it('limits presigned uploads per client address', async () => {
    const applicant = await registeredClient(server, 'limit@example.com');
    for (let i = 0; i < 2; i++)
      expect((await applicant.post('/api/presigned-url', { answer_key: KEY })).status).toBe(200);
    const refused = await applicant.post('/api/presigned-url', { answer_key: KEY });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: serverMessages.tooManyRequests });
  });
});
