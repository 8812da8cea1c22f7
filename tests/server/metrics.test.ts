/**
 * What an operator watches (D139): `/metrics` for a Prometheus scraper holding METRICS_TOKEN, off
 * without it, and `/readyz` until the database, its migrations and a job worker are there.
 */
import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInTenant } from '../../server/db/tenantScope';
import { HEARTBEAT_STATUS } from '../../server/jobs/heartbeat';
import { CONVERSION_JOB, UPLOAD_SWEEP_JOB } from '../../server/documents';
import { REUSE_MS } from '../../server/operations/queueFigures';
import { metricsMessages } from '../../server/operations/routes';
import { validApplication } from '../definitions/fixtures';
import { waitForPdf } from './documentUploads';
import { databaseKinds, registeredClient, startServer, type TestServer } from './harness';

const TOKEN = 'metrics-token-of-thirty-two-characters-at-least';
const scrape = (server: TestServer, token = TOKEN) =>
  server.client().request('GET', '/metrics', undefined, { authorization: `Bearer ${token}` });

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${name}${labels} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('/metrics without METRICS_TOKEN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  it('does not exist, with or without a token', async () => {
    expect((await server.client().get('/metrics')).status).toBe(404);
    expect((await scrape(server)).status).toBe(404);
  });
});

describe.each(databaseKinds)('/metrics and /readyz on %s', (database) => {
  let server: TestServer;
  const lines: string[] = [];

  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) =>
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)),
    );
    server = await startServer({
      database,
      env: { METRICS_TOKEN: TOKEN, LOG_LEVEL: 'warn' },
      logStream: stream,
    });
  });
  afterAll(async () => server?.close());

  it('refuses a scrape without the token or with a wrong one (401), logged without the token', async () => {
    const none = await server.client().get('/metrics');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ message: metricsMessages.unauthorized });
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    const wrong = await scrape(server, `${TOKEN}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toContain('admission_');
    const basic = await server
      .client()
      .request('GET', '/metrics', undefined, { authorization: `Basic ${TOKEN}` });
    expect(basic.status).toBe(401);
    const refusals = lines.filter((line) => line.includes('"metrics.token_refused"'));
    expect(refusals).toHaveLength(3);
    expect(lines.join('\n')).not.toContain(TOKEN);
  });

  it('after a save, a submit and a PDF: durations per route, the queue per kind, no applicant', async () => {
    const email = `metrics-${database}@example.com`;
    const applicant = await registeredClient(server, email);
    // The durations are the process's: counted from here.
    const before = (await scrape(server)).text;
    const scrapedAt = Date.now();
    expect((await applicant.put('/api/answer', validApplication)).status).toBe(200);
    expect((await applicant.post('/api/submit')).status).toBe(200);
    expect((await waitForPdf(applicant)).status).toBe('COMPLETED');
    // The queue's figures of a scrape serve the next ones for REUSE_MS: a quick PDF lands inside it.
    const served = Date.now() - scrapedAt;
    if (served <= REUSE_MS)
      await new Promise((resolve) => setTimeout(resolve, REUSE_MS + 50 - served));
    const tenant = server.built.tenants.forHost(undefined).id;
    const userId = (
      (await runInTenant(tenant, () =>
        server.built.database.db.execute(sql`select id::text from users where email = ${email}`),
      )) as unknown as { rows: { id: string }[] }
    ).rows[0]?.id;

    const response = await scrape(server);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = response.text;
    const count = (route: string, method: string) => {
      const name = 'admission_http_request_duration_seconds_count';
      const labels = `{method="${method}",route="${route}",status_code="200"}`;
      return (sample(text, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    };
    expect(count('/api/answer', 'PUT')).toBe(1);
    expect(count('/api/submit', 'POST')).toBe(1);
    expect(count('/api/pdf', 'GET')).toBeGreaterThanOrEqual(1);
    for (const state of ['waiting', 'scheduled', 'running', 'retrying', 'failed'])
      expect(
        sample(text, 'admission_jobs', `{kind="application-pdf",state="${state}"}`),
        state,
      ).toBe(0);
    expect(
      sample(text, 'admission_jobs_done_last_minute', '{kind="application-pdf"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'admission_jobs_oldest_waiting_seconds', `{kind="${CONVERSION_JOB}"}`),
    ).toBe(0);
    expect(sample(text, 'admission_workers_alive')).toBe(1);
    expect(sample(text, 'admission_worker_heartbeat_age_seconds')).toBeLessThan(30);
    // The process's count, as the durations: another server of this test process may have failed.
    expect(
      (sample(text, 'admission_mail_failures_total') ?? 0) -
        (sample(before, 'admission_mail_failures_total') ?? 0),
    ).toBe(0);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    if (database === 'postgres') expect(sample(text, 'admission_db_pool_waiting')).toBe(0);
    else expect(text).not.toContain('admission_db_pool_waiting');
    // No applicant in any label: no address, no account id, no tenant.
    expect(userId).toBeTruthy();
    expect(text).not.toContain(email);
    expect(text).not.toContain(userId);
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    expect(text).not.toContain(tenant);
  }, 90_000);

  it('counts a waiting job and its age from the queue at scrape time', async () => {
    const { queue } = server.built.documents;
    const sweep = await queue.enqueue(UPLOAD_SWEEP_JOB, {}, { delayMs: 3_600_000 });
    const db = server.built.database.db;
    // A due job no worker can take (its kind is not run here) waits, and ages with the clock.
    await db.execute(
      sql`insert into jobs (kind, payload, run_after, created_at, updated_at) values ('metrics-probe', '{}', ${server.clock.now().toISOString()}::timestamptz, now(), now())`,
    );
    server.clock.advance(90_000);
    // A read serves for REUSE_MS: the next scrape reads again.
    await new Promise((resolve) => setTimeout(resolve, REUSE_MS + 100));
    const text = (await scrape(server)).text;
    expect(sample(text, 'admission_jobs', '{kind="metrics-probe",state="waiting"}')).toBe(1);
    expect(
      sample(text, 'admission_jobs_oldest_waiting_seconds', '{kind="metrics-probe"}'),
    ).toBeCloseTo(90, 0);
    // Queued for later: scheduled, not waiting.
    expect(sample(text, 'admission_jobs', `{kind="${UPLOAD_SWEEP_JOB}",state="scheduled"}`)).toBe(
      1,
    );
    expect(sample(text, 'admission_jobs', `{kind="${UPLOAD_SWEEP_JOB}",state="waiting"}`)).toBe(0);
    await db.execute(sql`delete from jobs where kind = 'metrics-probe' or id = ${sweep}`);
    server.clock.advance(-90_000);
  });

  it('answers 30 scrapes in parallel, each whole and alike', async () => {
    await new Promise((resolve) => setTimeout(resolve, REUSE_MS + 100));
    const responses = await Promise.all(Array.from({ length: 30 }, () => scrape(server)));
    expect(responses.map((response) => response.status)).toEqual(Array(30).fill(200));
    const workers = responses.map((response) => sample(response.text, 'admission_workers_alive'));
    expect(workers).toEqual(Array(30).fill(1));
    for (const response of responses)
      expect(response.text).toContain('admission_jobs{kind="application-pdf",state="waiting"}');
  });

  it('/readyz: 200 with a worker beating and every migration; 503 without either', async () => {
    const db = server.built.database.db;
    const ready = await server.client().get('/readyz');
    expect(ready).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', migrations: 'ok', worker: 'ok' } },
    });

    // The database lacks this build's newest migration (restored from an older dump).
    const newest = (
      (await db.execute(
        sql`select id, hash, created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1`,
      )) as unknown as { rows: { id: number; hash: string; created_at: string }[] }
    ).rows[0]!;
    await db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${newest.id}`);
    try {
      expect(await server.client().get('/readyz')).toMatchObject({
        status: 503,
        body: { status: 'not ready', checks: { migrations: 'failed', worker: 'ok' } },
      });
    } finally {
      await db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${newest.id}, ${newest.hash}, ${newest.created_at}::bigint)`,
      );
    }

    // The worker stopped (or never started: JOB_WORKER=none with no worker): its heartbeat is gone.
    await server.built.documents.queue.stop();
    const beats = (await db.execute(
      sql`select count(*)::int as n from jobs where status = ${HEARTBEAT_STATUS}`,
    )) as unknown as { rows: { n: number }[] };
    expect(beats.rows[0]?.n).toBe(0);
    expect(await server.client().get('/readyz')).toMatchObject({
      status: 503,
      body: { checks: { database: 'ok', migrations: 'ok', worker: 'failed' } },
    });
    await new Promise((resolve) => setTimeout(resolve, REUSE_MS + 100));
    expect(sample((await scrape(server)).text, 'admission_workers_alive')).toBe(0);
    // /healthz stays the liveness check: the process and its database answer.
    expect((await server.client().get('/healthz')).status).toBe(200);
    server.built.documents.queue.start();
    await expect
      .poll(async () => (await server.client().get('/readyz')).status, { timeout: 5000 })
      .toBe(200);
  });
});
