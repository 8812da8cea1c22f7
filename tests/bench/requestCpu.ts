/**
 * CPU and statements per request kind (D130): the web process's CPU time (process.cpuUsage),
 * PostgreSQL's (its processes' CPU from /proc) and the statements sent, per request, for requests of
 * one kind sent one at a time by a client child process (./requestCpuClient.ts). One at a time on a
 * shared machine, this is the robust measure of what a request costs: the deadline bench's latencies
 * depend on everything else the machine runs, these figures hardly do.
 *
 * Production settings (Argon2id at 19 MiB), no job worker (its polls would count against the
 * database), PostgreSQL when TEST_DATABASE_URL is set (PGlite otherwise: the database's work is then
 * inside the web process). BENCH_REQUESTS sets the requests per kind (default 300; logins and submits
 * a third of it). A warm-up round of every kind comes first. BENCH_CPU_PROFILE=dir: a CPU profile of
 * the web process per kind.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../../server/app';
import { configFromEnv } from '../../server/config';
import {
  createAccounts,
  openBenchDatabase,
  PASSWORD,
  percentile,
  postmasterPid,
  startProfile,
} from './deadline';
import { ProcessCpu } from './processCpu';
import { countStatements } from '../server/statementCounter';
import {
  CPU_CLIENT_ENV,
  CPU_KINDS,
  type CpuKind,
  type CpuMessage,
  type CpuOrder,
} from './requestCpuClient';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const CLIENT_ENTRY = fileURLToPath(new URL('./requestCpuClient.ts', import.meta.url));

/** Kinds whose requests cost an Argon2 hash or an account each are sent a third as often. */
const countOf = (kind: CpuKind, requests: number) =>
  kind === 'login' || kind === 'submit' ? Math.max(5, Math.round(requests / 3)) : requests;

/** The status every request of the kind should get. */
const expectedStatus = (kind: CpuKind) => (kind === 'refused (no session)' ? 401 : 200);

interface KindResult {
  readonly kind: CpuKind;
  readonly count: number;
  readonly webMs: number;
  /** Of webMs, the kernel's part (sockets, mostly). */
  readonly webSystemMs: number;
  readonly databaseMs: number | undefined;
  readonly statements: number;
  readonly wallMedian: number;
  readonly statuses: Record<number, number>;
}

export async function runRequestCpuBench(): Promise<{ ok: boolean; lines: string[] }> {
  const database = await openBenchDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-requestcpu-'));
  const config = {
    ...configFromEnv({ NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    publicRateLimit: 1_000_000,
  };
  const built = await buildServer(config, { database: database.handle, startWorker: false });
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  const address = built.app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const postmaster = await postmasterPid(database.handle);
  const client = fork(CLIENT_ENTRY, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, [CPU_CLIENT_ENV]: '1' },
    stdio: 'inherit',
  });
  const next = () =>
    new Promise<CpuMessage>((resolve, reject) => {
      const onExit = () => reject(new Error('the client stopped'));
      client.once('exit', onExit);
      client.once('message', (message: CpuMessage) => {
        client.off('exit', onExit);
        resolve(message);
      });
    });

  let accounts = 0;
  const measure = async (kind: CpuKind, count: number, profiled = false): Promise<KindResult> => {
    const emails = Array.from(
      { length: kind === 'submit' ? count : 1 },
      () => `cpu-${accounts++}@example.com`,
    );
    await createAccounts(database.handle, config.defaultTenant, emails);
    const order: CpuOrder = { type: 'prepare', base, kind, count, password: PASSWORD, emails };
    const ready = next();
    client.send(order);
    await ready;
    const profile = profiled ? await startProfile('requestcpu') : undefined;
    const statements = countStatements(database.handle);
    const postgres = new ProcessCpu(() => ({ PostgreSQL: postmaster }));
    postgres.start();
    const started = performance.now();
    const cpu = process.cpuUsage();
    const done = next();
    client.send({ type: 'go' });
    const report = (await done) as Extract<CpuMessage, { type: 'done' }>;
    const used = process.cpuUsage(cpu);
    const seconds = (performance.now() - started) / 1000;
    const postgresCores = postgres.stop().cores.PostgreSQL;
    statements.stop();
    await profile?.(kind.replaceAll(' ', '-'));
    return {
      kind,
      count,
      webMs: (used.user + used.system) / 1000 / count,
      webSystemMs: used.system / 1000 / count,
      databaseMs:
        postmaster === undefined ? undefined : ((postgresCores ?? 0) * seconds * 1000) / count,
      statements: statements.count() / count,
      wallMedian: percentile(report.ms, 50),
      statuses: report.statuses,
    };
  };

  const lines = [
    `database: ${database.name}; requests one at a time from a child process; load average at start ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  ];
  let ok = true;
  try {
    for (const kind of CPU_KINDS) await measure(kind, countOf(kind, 30));
    for (const kind of CPU_KINDS) {
      const r = await measure(kind, countOf(kind, REQUESTS), true);
      const statuses = Object.entries(r.statuses)
        .map(([status, n]) => `${n}× ${status}`)
        .join(', ');
      if (r.statuses[expectedStatus(kind)] !== r.count) ok = false;
      lines.push(
        `${kind}: web ${r.webMs.toFixed(2)} ms CPU (${r.webSystemMs.toFixed(2)} of it in the kernel), ` +
          (r.databaseMs === undefined ? '' : `PostgreSQL ${r.databaseMs.toFixed(2)} ms CPU, `) +
          `${r.statements.toFixed(2)} statements, wall median ${r.wallMedian.toFixed(1)} ms per request (${r.count} requests: ${statuses})`,
      );
    }
  } finally {
    lines.push(
      `load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    client.disconnect();
    await built.app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  return { ok, lines };
}
