/**
 * Deadline-day load (issue 8, SECURITY.md section 5 "Derived load model" and section 7 case 35):
 * one server process, open-loop arrivals in the model's proportions — logins, autosaves, reads of
 * the application, submits and application-PDF status reads — at multiples of the peak of an
 * institution with 50,000 applications, on PostgreSQL when TEST_DATABASE_URL is set (PGlite
 * otherwise, and it says so).
 *
 * The model: 50,000 applications, 15 % submitted in the final 72 h → 0.029 submits/s on average and
 * ≈ 0.145/s at the peak (5x). Requests are 80 % autosave, 15 % reads, 5 % submits; logins come at
 * 2.7 per submitted application. 10x that peak is 1.45 submits/s, 23 autosaves/s, 4.3 reads/s and
 * 3.9 logins/s; PDF status reads come at twice the submit rate (every submit also queues its PDF).
 *
 * Pass at a rate: zero 5xx, autosave p99 under 1 s, and every acknowledged save persisted (the sum of
 * the applications' versions equals the number of acknowledged saves, and each applicant's last
 * acknowledged value is the stored one). The run steps up from 10x (the target) by doubling until a
 * condition fails, and reports the highest rate that held. BENCH_SECONDS sets each step's length
 * (default 10 s; the plan's 10 minutes: BENCH_SECONDS=600).
 */
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildServer } from '../../server/app';
import { configFromEnv } from '../../server/config';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { runInTenant } from '../../server/db/tenantScope';
import { users } from '../../server/db/schema';
import { PasswordHasher } from '../../server/passwords';
import { validApplication } from '../definitions/fixtures';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const MAX_STEPS = Number(process.env.BENCH_STEPS ?? 6);
const PASSWORD = 'Deadline-Day-2026';

/** Requests per second at 1x the peak of a 50,000-application institution. */
const PEAK = (() => {
  const submits = ((50_000 * 0.15) / (72 * 3600)) * 5;
  const total = submits / 0.05;
  // PDF: the copy is prepared after every submit; its status is read about twice per submit (the
  // completion page's poll, a download).
  return {
    submit: submits,
    autosave: total * 0.8,
    read: total * 0.15,
    login: submits * 2.7,
    pdf: submits * 2,
  };
})();

interface Sample {
  kind: 'login' | 'autosave' | 'read' | 'submit' | 'pdf';
  status: number;
  ms: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function request(
  base: string,
  method: string,
  pathname: string,
  body: unknown,
  cookie?: string,
): Promise<{ status: number; setCookie: string[]; text: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const req = http.request(
      new URL(pathname, base),
      {
        method,
        agent,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}),
          ...(cookie ? { cookie } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            setCookie: ([] as string[]).concat(res.headers['set-cookie'] ?? []),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', () => resolve({ status: 0, setCookie: [], text: '' }));
      },
    );
    req.on('error', () => resolve({ status: 0, setCookie: [], text: '' }));
    req.end(payload);
  });
}

async function login(base: string, email: string): Promise<{ status: number; cookie: string }> {
  const res = await request(base, 'POST', '/public/login', { username: email, password: PASSWORD });
  return { status: res.status, cookie: res.setCookie.map((c) => c.split(';')[0]).join('; ') };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

interface StepResult {
  multiple: number;
  offered: number;
  samples: Sample[];
  acknowledged: number;
  persisted: number;
  lastValuesMatch: boolean;
  /** Submitted applications whose PDF was ready when counted (once drained, or 60 s after the step). */
  pdfsReady: number;
  submitted: number;
  /** Event-loop delay p99 (ms) of the process serving the requests, during the step. */
  loopDelayP99: number;
  /** PDF jobs not yet done, every 5 s from the step's start until drained (or 60 s after its end). */
  backlog: number[];
  /** Seconds after the step's end until every PDF of the step was ready (null: not within 60 s). */
  pdfsReadyAfter: number | null;
}

/** Jobs of the application PDF still queued or running (the queue table is outside tenants). */
async function pdfBacklog(database: DatabaseHandle): Promise<number> {
  const result = await database.db.execute<{ n: number }>(
    sql`select count(*)::int as n from jobs where kind = 'application-pdf' and status in ('queued', 'running')`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    n: number;
  }[];
  return Number(rows[0]?.n ?? 0);
}

async function step(
  base: string,
  database: DatabaseHandle,
  multiple: number,
  stepIndex: number,
  tenantId: string,
): Promise<StepResult> {
  const rates = {
    login: PEAK.login * multiple,
    autosave: PEAK.autosave * multiple,
    read: PEAK.read * multiple,
    submit: PEAK.submit * multiple,
    pdf: PEAK.pdf * multiple,
  };
  // Editors: enough accounts that one editor saves every few seconds at most, as debounced saves do.
  const editors = Math.max(20, Math.ceil(rates.autosave * 3));
  const submitters = Math.ceil(rates.submit * SECONDS) + 2;
  const prefix = `s${stepIndex}x${multiple}`;
  const emails = (kind: string, n: number) =>
    Array.from({ length: n }, (_, i) => `${prefix}-${kind}-${i}@example.com`);
  const editorEmails = emails('editor', editors);
  const submitterEmails = emails('submitter', submitters);
  await createAccounts(database, tenantId, [...editorEmails, ...submitterEmails]);

  const editorCookies = await Promise.all(editorEmails.map((e) => login(base, e)));
  const submitterCookies = await Promise.all(submitterEmails.map((e) => login(base, e)));
  // Submitters have a complete application before the clock starts.
  await Promise.all(
    submitterCookies.map((s) => request(base, 'PUT', '/api/answer', validApplication, s.cookie)),
  );

  const samples: Sample[] = [];
  const lastAcked = new Map<number, string>();
  let acknowledged = 0;
  let counter = 0;
  let submitIndex = 0;
  const pending: Promise<void>[] = [];
  const timed = async (kind: Sample['kind'], run: () => Promise<{ status: number }>) => {
    const start = performance.now();
    const { status } = await run();
    samples.push({ kind, status, ms: performance.now() - start });
    return status;
  };

  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const backlog: number[] = [];
  const backlogTimer = setInterval(() => {
    void pdfBacklog(database).then((n) => backlog.push(n));
  }, 5000);
  const arrivals: [Sample['kind'], number][] = Object.entries(rates).map(([k, r]) => [
    k as Sample['kind'],
    r,
  ]);
  const end = performance.now() + SECONDS * 1000;
  const next = new Map(arrivals.map(([k, r]) => [k, performance.now() + 1000 / r / 2]));
  while (performance.now() < end) {
    const now = performance.now();
    for (const [kind, rate] of arrivals) {
      while ((next.get(kind) as number) <= now) {
        next.set(kind, (next.get(kind) as number) + 1000 / rate);
        if (kind === 'autosave') {
          const editor = counter % editors;
          const value = `${prefix} write ${++counter}`;
          const cookie = (editorCookies[editor] as { cookie: string }).cookie;
          pending.push(
            timed('autosave', () =>
              request(base, 'PUT', '/api/answer', { city: value }, cookie),
            ).then((status) => {
              if (status === 200) {
                acknowledged += 1;
                lastAcked.set(editor, value);
              }
            }),
          );
        } else if (kind === 'read') {
          const cookie = (editorCookies[counter % editors] as { cookie: string }).cookie;
          pending.push(
            timed('read', () => request(base, 'GET', '/api/profile', undefined, cookie)).then(
              () => undefined,
            ),
          );
        } else if (kind === 'pdf') {
          const submitter = submitterCookies[Math.max(0, submitIndex - 1) % submitters] as {
            cookie: string;
          };
          pending.push(
            timed('pdf', () => request(base, 'GET', '/api/pdf', undefined, submitter.cookie)).then(
              () => undefined,
            ),
          );
        } else if (kind === 'submit') {
          const submitter = submitterCookies[submitIndex++ % submitters] as { cookie: string };
          pending.push(
            timed('submit', () => request(base, 'POST', '/api/submit', {}, submitter.cookie)).then(
              () => undefined,
            ),
          );
        } else {
          const email = editorEmails[counter % editors] as string;
          pending.push(timed('login', () => login(base, email)).then(() => undefined));
        }
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await Promise.all(pending);
  loopDelay.disable();
  const loopDelayP99 = loopDelay.percentile(99) / 1e6;
  const stepEnd = performance.now();
  let pdfsReadyAfter: number | null = null;
  while (performance.now() - stepEnd < 60_000) {
    if ((await pdfBacklog(database)) === 0) {
      pdfsReadyAfter = (performance.now() - stepEnd) / 1000;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  clearInterval(backlogTimer);
  backlog.push(await pdfBacklog(database));

  // Acknowledged writes against what the database holds.
  // In the tenant's scope: on PostgreSQL, row-level security shows nothing outside one (D56).
  const rows = await runInTenant(tenantId, () =>
    database.db.execute<{ email: string; version: number; city: string | null }>(
      sql`select u.email, a.version, a.answers->>'city' as city from applications a join users u on u.id = a.user_id where u.email like ${`${prefix}-editor-%`}`,
    ),
  );
  const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as {
    email: string;
    version: number;
    city: string | null;
  }[];
  const persisted = list.reduce((sum, row) => sum + Number(row.version), 0);
  const byEmail = new Map(list.map((row) => [row.email, row.city]));
  let lastValuesMatch = true;
  for (const [editor, value] of lastAcked)
    if (byEmail.get(editorEmails[editor] as string) !== value) lastValuesMatch = false;
  const pdfRows = await runInTenant(tenantId, () =>
    database.db.execute<{ ready: number; submitted: number }>(
      sql`select count(*) filter (where p.status = 'COMPLETED')::int as ready, count(*)::int as submitted from applications a join users u on u.id = a.user_id left join application_pdfs p on p.user_id = a.user_id where a.submitted_at is not null and u.email like ${`${prefix}-submitter-%`}`,
    ),
  );
  const pdfCounts = (
    (Array.isArray(pdfRows) ? pdfRows : (pdfRows as { rows: unknown[] }).rows) as {
      ready: number;
      submitted: number;
    }[]
  )[0] ?? { ready: 0, submitted: 0 };
  const offered = Object.values(rates).reduce((a, b) => a + b, 0);
  return {
    multiple,
    offered,
    samples,
    acknowledged,
    persisted,
    lastValuesMatch,
    pdfsReady: Number(pdfCounts.ready),
    submitted: Number(pdfCounts.submitted),
    loopDelayP99,
    backlog,
    pdfsReadyAfter,
  };
}

let passwordHash: string | null = null;
async function createAccounts(
  database: DatabaseHandle,
  tenantId: string,
  emails: string[],
): Promise<void> {
  passwordHash ??= await new PasswordHasher(configFromEnv({}).argon2).hash(PASSWORD);
  const now = new Date();
  for (let i = 0; i < emails.length; i += 500)
    await runInTenant(tenantId, () =>
      database.db.insert(users).values(
        emails.slice(i, i + 500).map((email) => ({
          tenantId,
          email,
          passwordHash: passwordHash as string,
          confirmedAt: now,
          createdAt: now,
        })),
      ),
    );
}

function verdict(result: StepResult) {
  const fivexx = result.samples.filter((s) => s.status >= 500 || s.status === 0).length;
  const autosaves = result.samples.filter((s) => s.kind === 'autosave').map((s) => s.ms);
  const p99 = percentile(autosaves, 99);
  const writesHold = result.acknowledged === result.persisted && result.lastValuesMatch;
  return { fivexx, p99, writesHold, ok: fivexx === 0 && p99 < 1000 && writesHold };
}

async function openBenchDatabase(): Promise<{
  name: string;
  url?: string;
  handle: DatabaseHandle;
  close: () => Promise<void>;
}> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'admission-deadline-db-'));
    const handle = await openDatabase({ dataDir: dir });
    return {
      name: 'PGlite (TEST_DATABASE_URL unset; the plan asks for PostgreSQL)',
      handle,
      close: async () => {
        await handle.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `admission_deadline_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: dbUrl.toString() });
  return {
    name: 'PostgreSQL',
    url: dbUrl.toString(),
    handle,
    close: async () => {
      await handle.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

export async function runDeadlineBench(): Promise<{ ok: boolean; lines: string[] }> {
  const database = await openBenchDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-deadline-'));
  // Production settings (Argon2id at 19 MiB); the per-address limit on /public is lifted because
  // every simulated applicant comes from this one loopback address.
  const config = {
    ...configFromEnv({ NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    publicRateLimit: 1_000_000,
  };
  // One web process (this one, which also generates the load) and one job worker process (D98): on
  // PostgreSQL the worker opens its own pool on the bench database, on PGlite it goes through this
  // process. BENCH_INLINE_JOBS=1 measures the single process that hosts everything, as before.
  const inline = process.env.BENCH_INLINE_JOBS === '1';
  Object.assign(process.env, {
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  const built = await buildServer(config, {
    database: database.handle,
    startWorker: inline,
    workerProcess: !inline,
  });
  const rssStart = process.memoryUsage().rss;
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  const address = built.app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const lines = [
    `database: ${database.name}; ${SECONDS} s per step; ${inline ? 'one process hosting the jobs too' : 'one web process (which also generates the load) and one job worker process'}; load average at start ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
    `1x peak = ${PEAK.autosave.toFixed(2)} autosaves/s, ${PEAK.read.toFixed(2)} reads/s, ${PEAK.submit.toFixed(3)} submits/s, ${PEAK.login.toFixed(2)} logins/s, ${PEAK.pdf.toFixed(2)} PDF status reads/s`,
  ];
  let ok = false;
  let highest = 0;
  try {
    let multiple = 10;
    for (let i = 0; i < MAX_STEPS; i++, multiple *= 2) {
      const result = await step(base, database.handle, multiple, i, config.defaultTenant);
      const v = verdict(result);
      const count = (kind: Sample['kind']) => result.samples.filter((s) => s.kind === kind).length;
      const p99Of = (kind: Sample['kind']) =>
        percentile(
          result.samples.filter((s) => s.kind === kind).map((s) => s.ms),
          99,
        ).toFixed(0);
      lines.push(
        `${String(multiple).padStart(4)}x peak (${result.offered.toFixed(0)} req/s offered): ` +
          `${v.ok ? 'holds' : 'FAILS'} — 5xx ${v.fivexx}, autosave p99 ${v.p99.toFixed(0)} ms, ` +
          `acknowledged ${result.acknowledged} = persisted ${result.persisted}${result.lastValuesMatch ? '' : ' (last values differ!)'}; ` +
          `p99 login ${p99Of('login')} ms, read ${p99Of('read')} ms, submit ${p99Of('submit')} ms, PDF status ${p99Of('pdf')} ms; ` +
          `requests: ${count('autosave')} autosave, ${count('read')} read, ${count('submit')} submit, ${count('login')} login, ${count('pdf')} PDF status; ` +
          `PDFs ready when counted: ${result.pdfsReady} of ${result.submitted} submitted, PDF jobs all done ${result.pdfsReadyAfter === null ? 'NOT within 60 s' : `${result.pdfsReadyAfter.toFixed(0)} s`} after it; ` +
          `PDF backlog every 5 s: ${result.backlog.join(' ')}; web event-loop delay p99 ${result.loopDelayP99.toFixed(0)} ms`,
      );
      if (multiple === 10) ok = v.ok;
      if (!v.ok) break;
      highest = multiple;
    }
  } finally {
    lines.push(
      `memory (RSS) of the web process: ${(rssStart / 2 ** 20).toFixed(0)} MB at the start, ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB at the end; load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    await built.app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
    agent.destroy();
  }
  lines.push(
    highest > 0
      ? `highest rate one process sustained with all three holding: ${highest}x the peak (${(
          (PEAK.autosave + PEAK.read + PEAK.submit + PEAK.login + PEAK.pdf) *
          highest
        ).toFixed(0)} req/s)`
      : 'the target (10x the peak) did not hold',
  );
  return { ok, lines };
}
