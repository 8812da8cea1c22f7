/**
 * Deadline-day load (D39, SECURITY.md section 5 "Derived load model" and section 7 case 35):
 * one web process (this one) and its job worker process, open-loop arrivals in the model's proportions — logins, autosaves, reads of
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
 * (default 10 s; the plan's 10 minutes: BENCH_SECONDS=600), BENCH_FROM the first multiple,
 * BENCH_STEPS the number of steps, BENCH_ALL_STEPS=1 goes on past a failing step.
 *
 * The requests come from a child process (./deadlineLoad.ts), so this process is the web server
 * alone. Per step the bench reports the CPU each process took (./processCpu.ts), the waits for a
 * database connection and for an Argon2 slot, and, before the steps, the statements each kind of
 * request sends to PostgreSQL.
 *
 * BENCH_SEASON=1 starts from a season's rows instead of an empty database (./season.ts: 50,000
 * applications of the tenant and 250,000 finished jobs), the state of a real deadline day.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildServer, type BuiltServer } from '../../server/app';
import { configFromEnv } from '../../server/config';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { runInTenant } from '../../server/db/tenantScope';
import { users } from '../../server/db/schema';
import { PasswordHasher } from '../../server/passwords';
import { validApplication } from '../definitions/fixtures';
import {
  LOAD_CHILD_ENV,
  login,
  request,
  type RequestKind,
  type Sample,
  type StepOrder,
  type StepReport,
} from './deadlineLoad';
import { ProcessCpu } from './processCpu';
import { MemoryReport } from './memory';
import { dropDatabase } from '../server/dropDatabase';
import { generateApplications, generateFinishedJobs, SEASON } from './season';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const MAX_STEPS = Number(process.env.BENCH_STEPS ?? 6);
const FIRST_MULTIPLE = Number(process.env.BENCH_FROM ?? 10);
const ALL_STEPS = process.env.BENCH_ALL_STEPS === '1';
export const PASSWORD = 'Deadline-Day-2026';
const LOAD_ENTRY = fileURLToPath(new URL('./deadlineLoad.ts', import.meta.url));

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

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** Rows of a raw statement, from either driver's result shape. */
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}

interface StepResult {
  multiple: number;
  offered: number;
  samples: Sample[];
  acknowledged: number;
  /** Changes replaced by a newer one while their editor's save was in flight. */
  coalesced: number;
  persisted: number;
  lastValuesMatch: boolean;
  /** Submitted applications whose PDF was ready when counted (once drained, or 60 s after the step). */
  pdfsReady: number;
  submitted: number;
  /** Event-loop delay p99 (ms) of the web process, during the step. */
  loopDelayP99: number;
  /** PDF jobs not yet done, every 5 s from the step's start until drained (or 60 s after its end). */
  backlog: number[];
  /** Seconds after the step's end until every PDF of the step was ready (null: not within 60 s). */
  pdfsReadyAfter: number | null;
  /** CPU of each process group during the step, in cores (2 = both cores of a 2-core machine). */
  cpu: Record<string, number>;
  machineCores: number;
  /** Callers waiting for a database connection (PostgreSQL) and for an Argon2 slot: max, mean. */
  poolWaiting: { max: number; mean: number };
  argon2Waiting: { max: number; mean: number };
}

/** Jobs of the application PDF still queued or running (the queue table is outside tenants). */
async function pdfBacklog(database: DatabaseHandle): Promise<number> {
  const result = await database.db.execute<{ n: number }>(
    sql`select count(*)::int as n from jobs where kind = 'application-pdf' and status in ('queued', 'running')`,
  );
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/** Samples a gauge every 100 ms: its maximum and mean over the step. */
function gauge(read: () => number) {
  let max = 0;
  let sum = 0;
  let count = 0;
  const timer = setInterval(() => {
    const value = read();
    max = Math.max(max, value);
    sum += value;
    count += 1;
  }, 100);
  return () => {
    clearInterval(timer);
    return { max, mean: count ? sum / count : 0 };
  };
}

interface Bench {
  readonly base: string;
  readonly database: DatabaseHandle;
  readonly built: BuiltServer;
  readonly tenantId: string;
  readonly load: ChildProcess;
  readonly postmaster: number | undefined;
}

/** Sends the step to the load generator; resolves when its arrivals start and when it reports. */
function runLoad(load: ChildProcess, order: StepOrder) {
  let started!: () => void;
  const arrivals = new Promise<void>((resolve) => (started = resolve));
  const report = new Promise<StepReport>((resolve, reject) => {
    const onMessage = (message: StepReport | { type: 'arrivals' }) => {
      if (message.type === 'arrivals') started();
      else {
        load.off('message', onMessage);
        load.off('exit', onExit);
        resolve(message);
      }
    };
    const onExit = () => reject(new Error('the load generator stopped'));
    load.on('message', onMessage);
    load.once('exit', onExit);
  });
  load.send(order);
  return { arrivals, report };
}

async function step(bench: Bench, multiple: number, stepIndex: number): Promise<StepResult> {
  const { database, tenantId } = bench;
  const rates: Record<RequestKind, number> = {
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

  const { arrivals, report } = runLoad(bench.load, {
    type: 'step',
    base: bench.base,
    seconds: SECONDS,
    prefix,
    password: PASSWORD,
    rates,
    editorEmails,
    submitterEmails,
  });
  await arrivals;
  const cpu = new ProcessCpu(
    () => ({
      web: process.pid,
      worker: bench.built.workerProcess?.pid,
      'load generator': bench.load.pid,
      PostgreSQL: bench.postmaster,
    }),
    { pattern: /^(chromium|chrome|headless_shell)/, group: 'Chromium' },
  );
  cpu.start();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const poolWaiting = gauge(() => database.poolStats?.().waiting ?? 0);
  const argon2Waiting = gauge(() => bench.built.context.hasher.load.waiting);
  const backlog: number[] = [];
  // -1: the count itself got no database connection in time.
  const backlogTimer = setInterval(() => {
    void pdfBacklog(database).then(
      (n) => backlog.push(n),
      () => backlog.push(-1),
    );
  }, 5000);
  const { samples, acknowledged, coalesced, lastAcked } = await report;
  loopDelay.disable();
  const usage = cpu.stop();
  const pool = poolWaiting();
  const argon2 = argon2Waiting();
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
  const list = rowsOf<{ email: string; version: number; city: string | null }>(
    await runInTenant(tenantId, () =>
      database.db.execute(
        sql`select u.email, a.version, a.answers->>'city' as city from applications a join users u on u.id = a.user_id where u.email like ${`${prefix}-editor-%`}`,
      ),
    ),
  );
  const persisted = list.reduce((sum, row) => sum + Number(row.version), 0);
  const byEmail = new Map(list.map((row) => [row.email, row.city]));
  let lastValuesMatch = true;
  for (const [editor, value] of lastAcked)
    if (byEmail.get(editorEmails[editor] as string) !== value) lastValuesMatch = false;
  const pdfCounts = rowsOf<{ ready: number; submitted: number }>(
    await runInTenant(tenantId, () =>
      database.db.execute(
        sql`select count(*) filter (where p.status = 'COMPLETED')::int as ready, count(*)::int as submitted from applications a join users u on u.id = a.user_id left join application_pdfs p on p.user_id = a.user_id where a.submitted_at is not null and u.email like ${`${prefix}-submitter-%`}`,
      ),
    ),
  )[0] ?? { ready: 0, submitted: 0 };
  const offered = Object.values(rates).reduce((a, b) => a + b, 0);
  return {
    multiple,
    offered,
    samples,
    acknowledged,
    coalesced,
    persisted,
    lastValuesMatch,
    pdfsReady: Number(pdfCounts.ready),
    submitted: Number(pdfCounts.submitted),
    loopDelayP99,
    backlog,
    pdfsReadyAfter,
    cpu: usage.cores,
    machineCores: usage.machineCores,
    poolWaiting: pool,
    argon2Waiting: argon2,
  };
}

let passwordHash: string | null = null;
export async function createAccounts(
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

export async function openBenchDatabase(): Promise<{
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
      await dropDatabase((statement) => admin.query(statement), name);
      await admin.end();
    },
  };
}

/** The PostgreSQL server's main process when it runs on this machine (its backends' parent). */
export async function postmasterPid(database: DatabaseHandle): Promise<number | undefined> {
  if (database.kind !== 'postgres') return undefined;
  const [row] = rowsOf<{ pid: number }>(
    await database.db.execute(sql`select pg_backend_pid() as pid`),
  );
  try {
    const stat = readFileSync(`/proc/${row?.pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/**
 * Statements the web process sends to PostgreSQL per request of each kind (connection set-up,
 * transaction control and the tenant setting included), one request at a time on a quiet server:
 * every query of this process's pg clients is counted (the worker has its own process and pool).
 */
async function statementsPerRequest(bench: Bench): Promise<string> {
  if (bench.database.kind !== 'postgres')
    return 'statements per request: counted on PostgreSQL only';
  let statements = 0;
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements += 1;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    const [editor, submitter] = [
      'statements-editor@example.com',
      'statements-submitter@example.com',
    ];
    await createAccounts(bench.database, bench.tenantId, [editor, submitter]);
    const counted = async (run: () => Promise<unknown>) => {
      const before = statements;
      await run();
      return statements - before;
    };
    const base = bench.base;
    const first = await login(base, editor, PASSWORD);
    const loginCount = await counted(() => login(base, editor, PASSWORD));
    // The first save creates the row; the next ones are the steady state measured here.
    await request(base, 'PUT', '/api/answer', { city: 'first' }, first.cookie);
    // Within the session's touch interval: a touch adds its statement at most every few seconds.
    const autosave = await counted(() =>
      request(base, 'PUT', '/api/answer', { city: 'second' }, first.cookie),
    );
    const read = await counted(() => request(base, 'GET', '/api/profile', undefined, first.cookie));
    const applicant = await login(base, submitter, PASSWORD);
    await request(base, 'PUT', '/api/answer', validApplication, applicant.cookie);
    const submit = await counted(() => request(base, 'POST', '/api/submit', {}, applicant.cookie));
    const pdf = await counted(() => request(base, 'GET', '/api/pdf', undefined, applicant.cookie));
    return `statements per request (web process, one at a time): login ${loginCount}, autosave ${autosave}, read ${read}, submit ${submit}, PDF status ${pdf}`;
  } finally {
    pg.Client.prototype.query = original;
  }
}

/** BENCH_CPU_PROFILE=dir: a CPU profile of the web process per step (open it in Chrome DevTools). */
export async function startProfile(
  prefix = 'deadline-web',
): Promise<((name: string) => Promise<void>) | undefined> {
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return undefined;
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (name) => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(path.join(dir, `${prefix}-${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}

function describe(result: StepResult): string {
  const v = verdict(result);
  const count = (kind: RequestKind) => result.samples.filter((s) => s.kind === kind).length;
  const p99Of = (kind: RequestKind) =>
    percentile(
      result.samples.filter((s) => s.kind === kind).map((s) => s.ms),
      99,
    ).toFixed(0);
  const cpu = Object.entries(result.cpu)
    .sort((a, b) => b[1] - a[1])
    .map(([group, cores]) => `${group} ${(cores * 100).toFixed(0)} %`)
    .join(', ');
  return (
    `${String(result.multiple).padStart(4)}x peak (${result.offered.toFixed(0)} req/s offered): ` +
    `${v.ok ? 'holds' : 'FAILS'} — 5xx ${v.fivexx}, autosave p99 ${v.p99.toFixed(0)} ms, ` +
    `acknowledged ${result.acknowledged} = persisted ${result.persisted}${result.lastValuesMatch ? '' : ' (last values differ!)'}; ` +
    `p99 login ${p99Of('login')} ms, read ${p99Of('read')} ms, submit ${p99Of('submit')} ms, PDF status ${p99Of('pdf')} ms; ` +
    `requests: ${count('autosave')} autosave (with If-Match, one at a time per editor; ${result.coalesced} changes replaced by a newer one while waiting), ${count('read')} read, ${count('submit')} submit, ${count('login')} login, ${count('pdf')} PDF status; ` +
    `PDFs ready when counted: ${result.pdfsReady} of ${result.submitted} submitted, PDF jobs all done ${result.pdfsReadyAfter === null ? 'NOT within 60 s' : `${result.pdfsReadyAfter.toFixed(0)} s`} after it; ` +
    `PDF backlog every 5 s: ${result.backlog.join(' ')}; web event-loop delay p99 ${result.loopDelayP99.toFixed(0)} ms; ` +
    `waiting for a database connection max ${result.poolWaiting.max} (mean ${result.poolWaiting.mean.toFixed(1)}), for Argon2 max ${result.argon2Waiting.max} (mean ${result.argon2Waiting.mean.toFixed(1)}); ` +
    `CPU (100 % = one core) ${cpu}; machine ${(result.machineCores * 100).toFixed(0)} % of ${os.availableParallelism() * 100} %`
  );
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
  // One web process (this one) and one job worker process (D98): on PostgreSQL the worker opens its
  // own pool on the bench database, on PGlite it goes through this process. BENCH_INLINE_JOBS=1
  // measures the single process that hosts everything.
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
  const season = process.env.BENCH_SEASON === '1';
  if (season) {
    await generateApplications(database.handle.db, config.defaultTenant);
    await generateFinishedJobs(database.handle.db, config.defaultTenant);
  }
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  const address = built.app.server.address();
  const load = fork(LOAD_ENTRY, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, [LOAD_CHILD_ENV]: '1' },
    stdio: 'inherit',
  });
  const bench: Bench = {
    base: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    database: database.handle,
    built,
    tenantId: config.defaultTenant,
    load,
    postmaster: await postmasterPid(database.handle),
  };
  const memory = new MemoryReport(() => ({ web: process.pid, worker: built.workerProcess?.pid }));
  memory.sample('the start');
  memory.everyMinute();
  const lines = [
    `database: ${database.name}${season ? `, preloaded with ${SEASON.applications.toLocaleString('en-US')} applications and ${SEASON.finishedJobs.toLocaleString('en-US')} finished jobs` : ', empty at the start'}; ${SECONDS} s per step; ${inline ? 'one process hosting the jobs too' : 'one web process and one job worker process'}, the load from a child process of the bench; load average at start ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
    `1x peak = ${PEAK.autosave.toFixed(2)} autosaves/s, ${PEAK.read.toFixed(2)} reads/s, ${PEAK.submit.toFixed(3)} submits/s, ${PEAK.login.toFixed(2)} logins/s, ${PEAK.pdf.toFixed(2)} PDF status reads/s`,
  ];
  let ok = false;
  let highest = 0;
  try {
    lines.push(await statementsPerRequest(bench));
    let multiple = FIRST_MULTIPLE;
    let held = true;
    for (let i = 0; i < MAX_STEPS; i++, multiple *= 2) {
      const profile = await startProfile();
      const result = await step(bench, multiple, i);
      await profile?.(`${multiple}x`);
      const v = verdict(result);
      lines.push(describe(result));
      if (i === 0) memory.sample('the end of the first step');
      if (multiple === 10) ok = v.ok;
      if (!v.ok) held = false;
      if (held) highest = multiple;
      if (!v.ok && !ALL_STEPS) break;
    }
  } finally {
    memory.stop();
    memory.sample('the end');
    lines.push(
      `${memory.text()}; load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    load.disconnect();
    await built.app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  lines.push(
    highest > 0
      ? `highest rate one web and one worker process sustained with all three holding: ${highest}x the peak (${(
          (PEAK.autosave + PEAK.read + PEAK.submit + PEAK.login + PEAK.pdf) *
          highest
        ).toFixed(0)} req/s)`
      : `the first step (${FIRST_MULTIPLE}x the peak) did not hold`,
  );
  return { ok: FIRST_MULTIPLE === 10 ? ok : highest > 0, lines };
}
