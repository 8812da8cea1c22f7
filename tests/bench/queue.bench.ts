/**
 * Job queue benchmark (D136): claiming and running a job, one after another through a backlog, with
 * an empty `jobs` table and with a season's history in it (250,000 finished jobs of 50,000
 * applicants, finished over the last day, so inside the retention window and not yet pruned). On
 * PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set (in a database of its own, dropped
 * after). Target: with the history, the median claim-and-run within 1.3x of the empty table's.
 */
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { JobQueue } from '../../server/jobs/queue';
import { dropDatabase } from '../server/dropDatabase';
import { generateFinishedJobs, SEASON } from './season';

const HISTORY = SEASON.finishedJobs;
/** Jobs queued at once, then claimed and run one after another (the backlog of a busy minute). */
const BACKLOG = 25;
const ROUNDS = 6;
const MAX_RATIO = 1.3;
const BENCH_JOB = 'queue-bench';

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function preload(handle: DatabaseHandle, count: number) {
  await generateFinishedJobs(handle.db, 'northfield', count);
}

/** Times claiming and running one job through `BACKLOG` queued jobs of as many applicants. */
async function claimAndRun(queue: JobQueue, round: number, times: number[]): Promise<void> {
  for (let i = 0; i < BACKLOG; i++)
    await queue.enqueue(BENCH_JOB, { tenantId: 'northfield', userId: `u${round * BACKLOG + i}` });
  for (;;) {
    const started = performance.now();
    const ran = await queue.runOnce();
    if (!ran) break;
    times.push(performance.now() - started);
  }
}

/** A fresh database of the kind: a new PGlite, or a new PostgreSQL database beside the test one. */
async function freshDatabase(kind: 'pglite' | 'postgres') {
  if (kind === 'pglite') {
    const handle = await openDatabase({ pglite: new PGlite() });
    return { handle, drop: async () => handle.close() };
  }
  const url = process.env.TEST_DATABASE_URL as string;
  const name = `queue_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const databaseUrl = new URL(url);
  databaseUrl.pathname = `/${name}`;
  const handle = await openDatabase({
    databaseUrl: databaseUrl.toString(),
    queryTimeoutMs: 120_000,
  });
  return {
    handle,
    drop: async () => {
      await handle.close();
      try {
        await dropDatabase((statement) => admin.query(statement), name);
      } finally {
        await admin.end();
      }
    },
  };
}

export async function runQueueBench(): Promise<{ ok: boolean; lines: string[] }> {
  const kinds: ('pglite' | 'postgres')[] = process.env.TEST_DATABASE_URL
    ? ['pglite', 'postgres']
    : ['pglite'];
  const lines: string[] = [
    `median claim and run of one job through a backlog of ${BACKLOG}, ${ROUNDS} rounds`,
  ];
  let ok = true;
  for (const kind of kinds) {
    // Both tables side by side, their rounds taken in turn, so a busy moment of the machine weighs
    // on both alike.
    const tables = [
      { history: 0, ...(await freshDatabase(kind)), times: [] as number[] },
      { history: HISTORY, ...(await freshDatabase(kind)), times: [] as number[] },
    ];
    try {
      for (const table of tables) await preload(table.handle, table.history);
      const queues = tables.map((table) =>
        new JobQueue(table.handle.db, {
          now: () => new Date(),
          // As the product claims on each database (server/jobKinds.ts).
          serialClaims: kind === 'postgres',
        }).register(BENCH_JOB, { run: async () => undefined }),
      );
      for (let round = 0; round < ROUNDS; round++)
        for (const [i, table] of tables.entries())
          await claimAndRun(queues[i]!, round, table.times);
    } finally {
      for (const table of tables) await table.drop();
    }
    const [empty = 0, season = 0] = tables.map((table) => median(table.times));
    const ratio = season / empty;
    if (!(ratio <= MAX_RATIO)) ok = false;
    lines.push(
      `${kind}: empty table ${empty.toFixed(1)} ms, ${HISTORY.toLocaleString('en-US')} finished jobs ${season.toFixed(1)} ms (x${ratio.toFixed(2)}, target <= ${MAX_RATIO})${ratio <= MAX_RATIO ? '' : ' OVER TARGET'}`,
    );
  }
  return { ok, lines };
}
