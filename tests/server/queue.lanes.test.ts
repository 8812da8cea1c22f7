/**
 * The job queue stays fast and fair (D136): finished jobs are pruned after their retention (queued
 * and running never), owners take turns for the slots of each lane, a small image never waits
 * behind another applicant's Word prints, and a burst of workers claiming at once takes each job
 * exactly once. A job longer than its lease stays its worker's while the worker beats (D176).
 */
import { performance } from 'node:perf_hooks';
import { eq, ne, sql } from 'drizzle-orm';
import { HEARTBEAT_STATUS } from '../../server/jobs/heartbeat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertToPdf, printedByChromium } from '../../server/conversion/convert';
import type { DatabaseHandle } from '../../server/db/client';
import { jobs } from '../../server/db/schema';
import { JobQueue, type JobLane } from '../../server/jobs/queue';
import { PRUNE_BATCH } from '../../server/jobs/prune';
import { ChromiumPrinter } from '../../server/pdf/chromium';
import { png } from './documentFiles';
import { Clock, databaseKinds, openTestDatabase } from './harness';

const DAY = 24 * 60 * 60_000;
const RETENTION = { doneMs: 7 * DAY, failedMs: 30 * DAY };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(databaseKinds)('the job queue: retention, lanes and turns on %s', (database) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, drop } = await openTestDatabase(database));
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
    await drop?.();
  });

  /** A queue as the product builds one on this database (claims in turn on PostgreSQL). */
  const newQueue = (options: Partial<ConstructorParameters<typeof JobQueue>[1]> = {}) =>
    new JobQueue(handle.db, {
      now: () => new Date(),
      pollMs: 20,
      serialClaims: handle.kind === 'postgres',
      ...options,
    });

  const clearJobs = () => handle.db.execute(sql`delete from jobs`);

  /** A job row as it stands after `ageMs` in its status. */
  const row = (status: string, ageMs: number, now: Date, userId = 'someone') => ({
    kind: 'retention-test',
    payload: { tenantId: 'northfield', userId },
    status,
    runAfter: new Date(now.getTime() - ageMs),
    createdAt: new Date(now.getTime() - ageMs),
    updatedAt: new Date(now.getTime() - ageMs),
  });

  it('prunes done jobs past the retention and failed ones past theirs; queued and running never', async () => {
    await clearJobs();
    const clock = new Clock();
    const now = clock.now();
    const cases = [
      { status: 'done', ageMs: 7 * DAY + 60_000, kept: false },
      { status: 'done', ageMs: 7 * DAY - 60_000, kept: true },
      { status: 'failed', ageMs: 8 * DAY, kept: true },
      { status: 'failed', ageMs: 30 * DAY + 60_000, kept: false },
      { status: 'queued', ageMs: 100 * DAY, kept: true },
      { status: 'running', ageMs: 100 * DAY, kept: true },
    ];
    const ids = await handle.db
      .insert(jobs)
      .values(cases.map((c) => row(c.status, c.ageMs, now)))
      .returning({ id: jobs.id });
    const queue = newQueue({ now: clock.now, retention: RETENTION });
    expect(await queue.prune()).toBe(2);
    const left = (await handle.db.select({ id: jobs.id }).from(jobs)).map((r) => r.id).sort();
    expect(left).toEqual(ids.filter((_, i) => cases[i]!.kept).map((r) => r.id));
    // Without a retention nothing is pruned.
    clock.advance(365 * DAY);
    expect(await newQueue({ now: clock.now }).prune()).toBe(0);
  }, 60_000);

  it('prunes a backlog larger than a batch in one pass, also when five workers prune at once', async () => {
    await clearJobs();
    const count = PRUNE_BATCH * 2 + 500;
    await handle.db
      .execute(sql`insert into jobs (kind, payload, status, run_after, created_at, updated_at)
      select 'retention-test', jsonb_build_object('tenantId', 'northfield', 'userId', 'u' || n), 'done',
        now() - interval '40 days', now() - interval '40 days', now() - interval '40 days'
      from generate_series(1, ${count}::int) n`);
    await handle.db.insert(jobs).values(row('queued', 40 * DAY, new Date()));
    const pruned = await Promise.all(
      Array.from({ length: 5 }, () => newQueue({ retention: RETENTION }).prune()),
    );
    expect(pruned.reduce((a, b) => a + b, 0)).toBe(count);
    const left = await handle.db.select({ status: jobs.status }).from(jobs);
    expect(left).toEqual([{ status: 'queued' }]);
  }, 60_000);

  it('a running worker prunes by itself', async () => {
    await clearJobs();
    const queue = newQueue({ retention: RETENTION, pruneEveryMs: 50 });
    queue.start();
    try {
      await handle.db.insert(jobs).values(row('done', 8 * DAY, new Date()));
      // The running worker's own heartbeat row (D139) is no finished job.
      const finished = () => handle.db.select().from(jobs).where(ne(jobs.status, HEARTBEAT_STATUS));
      for (let i = 0; i < 200 && (await finished()).length > 0; i++) await pause(25);
      expect(await finished()).toEqual([]);
    } finally {
      await queue.stop();
    }
  }, 30_000);

  it('a job running past its lease stays its worker’s while it beats, and goes to another once it stops', async () => {
    await clearJobs();
    const clock = new Clock();
    const LEASE_MS = 60_000;
    // Beats every 200 ms rather than every 10 s: the lease moves on the next beat, whenever it is.
    const HEARTBEAT_MS = 200;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const runs: number[] = [];
    const long = {
      lane: 'print' as const,
      run: async (job: { attempt: number }) => {
        runs.push(job.attempt);
        await held;
      },
    };
    const first = newQueue({
      now: clock.now,
      leaseMs: LEASE_MS,
      heartbeatMs: HEARTBEAT_MS,
    }).register('long', long);
    const second = newQueue({ now: clock.now, leaseMs: LEASE_MS }).register('long', long);
    await first.enqueue('long', { tenantId: 'northfield' });
    const [job] = await handle.db.select().from(jobs).where(eq(jobs.kind, 'long'));
    const leaseOf = async () =>
      (await handle.db.select().from(jobs).where(eq(jobs.id, job!.id)))[0]!.lockedUntil!.getTime();
    first.start();
    try {
      for (let i = 0; i < 200 && runs.length === 0; i++) await pause(25);
      expect(runs).toEqual([1]);
      // Past the lease taken at the claim: the next beat moves it on.
      clock.advance(LEASE_MS + 1000);
      const past = clock.now().getTime();
      for (let i = 0; i < 50 && (await leaseOf()) <= past; i++) await pause(100);
      expect(await leaseOf()).toBe(past + LEASE_MS);
      expect(await second.claim('print')).toBeNull();
      // A worker that stops beating (a crash) leaves the job to the next once the lease runs out.
      await first.stop({ abandon: true });
      clock.advance(LEASE_MS + 1000);
      expect((await second.claim('print'))?.attempt).toBe(2);
    } finally {
      release();
      await first.stop();
    }
  }, 60_000);

  it('no owner holds two slots of a lane while another owner waits for one (two workers)', async () => {
    await clearJobs();
    const owners = { a: 0, b: 0, c: 0 } as Record<string, number>;
    const violations: string[] = [];
    const starts: string[] = [];
    const workers = [newQueue(), newQueue()];
    const kindOf = (lane: JobLane) => `turns-${lane}`;
    for (const worker of workers)
      for (const lane of ['fast', 'print'] as const)
        worker.register<{ tenantId: string; userId: string }>(kindOf(lane), {
          lane,
          async run(job) {
            const owner = `northfield/${job.payload.userId}`;
            starts.push(`${job.payload.userId}:${lane}`);
            const [counts] = (
              (await handle.db.execute(sql`select
                (select count(*) from jobs where owner = ${owner} and lane = ${lane} and status = 'running')::int as mine,
                (select count(*) from jobs where owner <> ${owner} and lane = ${lane} and status = 'queued')::int as waiting`)) as unknown as {
                rows: { mine: number; waiting: number }[];
              }
            ).rows;
            if (counts!.mine > 1 && counts!.waiting > 0)
              violations.push(`${owner} took a second ${lane} slot while others waited`);
            owners[job.payload.userId]! += 1;
            await pause(lane === 'print' ? 200 : 40);
          },
        });
    const queued: [string, JobLane][] = [
      ...Array.from({ length: 4 }, (): [string, JobLane] => ['a', 'print']),
      ...Array.from({ length: 4 }, (): [string, JobLane] => ['a', 'fast']),
      ['b', 'print'],
      ['b', 'fast'],
      ['b', 'fast'],
      ['c', 'print'],
    ];
    for (const [userId, lane] of queued)
      await workers[0]!.enqueue(kindOf(lane), { tenantId: 'northfield', userId });
    for (const worker of workers) worker.start();
    for (let i = 0; i < 400 && starts.length < queued.length; i++) await pause(25);
    await Promise.all(workers.map((worker) => worker.stop()));
    expect(starts).toHaveLength(queued.length);
    expect(violations).toEqual([]);
    // The two print slots went to two owners first, and b's and c's prints before a's third.
    const prints = starts.filter((s) => s.endsWith(':print')).map((s) => s.split(':')[0]);
    expect(new Set(prints.slice(0, 2)).size).toBe(2);
    expect(prints.slice(0, 4).sort()).toEqual(['a', 'a', 'b', 'c']);
  }, 30_000);

  it("an applicant's small PNG is converted within seconds while another's Word files print", async () => {
    await clearJobs();
    const printer = new ChromiumPrinter();
    const settled = new Map<string, number>();
    const queue = newQueue();
    const WORD_PRINT_MS = 4_000;
    // The lane is the product's (the file's name, as the conversion request chooses it); the Word
    // print is simulated as a slow one, the image is converted for real.
    queue.register<{ tenantId: string; userId: string; fileName: string }>('lane-conversion', {
      async run(job) {
        if (printedByChromium(job.payload.fileName)) await pause(WORD_PRINT_MS);
        else {
          const result = await convertToPdf(png(), job.payload.fileName, printer);
          expect(result.ok).toBe(true);
        }
        settled.set(job.payload.fileName, performance.now());
      },
    });
    const enqueue = (userId: string, fileName: string) =>
      queue.enqueue(
        'lane-conversion',
        { tenantId: 'northfield', userId, fileName },
        { lane: printedByChromium(fileName) ? 'print' : 'fast' },
      );
    queue.start();
    try {
      for (let i = 0; i < 3; i++) await enqueue('heavy', `statement${i}.docx`);
      await pause(100);
      const sent = performance.now();
      await enqueue('light', 'small.png');
      for (let i = 0; i < 200 && !settled.has('small.png'); i++) await pause(25);
      const waited = (settled.get('small.png') ?? Infinity) - sent;
      console.info(
        `D136 lanes on ${database}: the small PNG settled ${waited.toFixed(0)} ms after it was sent, while 3 Word prints of ${WORD_PRINT_MS} ms ran`,
      );
      expect(waited).toBeLessThan(3_000);
      expect(settled.has('statement0.docx')).toBe(false);
    } finally {
      await queue.stop();
      await printer.close();
    }
  }, 30_000);

  it('thirty workers claiming at once take each of 200 jobs exactly once', async () => {
    await clearJobs();
    const runs = new Map<number, number>();
    const workers = Array.from({ length: 30 }, () =>
      newQueue().register('burst-test', {
        run: async (job) => {
          runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        },
      }),
    );
    const ids = [];
    for (let i = 0; i < 200; i++)
      ids.push(
        await workers[0]!.enqueue(
          'burst-test',
          { tenantId: 'northfield', userId: `u${i % 7}` },
          { lane: i % 2 ? 'fast' : 'print' },
        ),
      );
    await Promise.all(
      workers.map(async (worker, i) => {
        const lane = i % 3 === 0 ? undefined : i % 3 === 1 ? 'fast' : 'print';
        while (await worker.runOnce(lane));
      }),
    );
    expect([...runs.keys()].sort((a, b) => a - b)).toEqual(ids);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    const statuses = (await handle.db.execute(
      sql`select distinct status from jobs`,
    )) as unknown as {
      rows: unknown[];
    };
    expect(statuses.rows).toEqual([{ status: 'done' }]);
  }, 60_000);
});
