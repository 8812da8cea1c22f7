/**
 * What the claim takes and in which order (D71, D136): the jobs of a lane that are ready, the owner
 * with no job running first, then the owner with the least work finished within the fairness window,
 * then the oldest. The counts are served by the `jobs_owner` index (owner, status, updated_at), so a
 * table holding a season of finished jobs claims as fast as an empty one.
 */
import { and, asc, eq, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { jobs } from '../db/schema';

/**
 * The worker's lanes, each running one job at a time (D136): `print`, the jobs that print with
 * Chromium (a Word file's conversion, the application PDF), which take seconds each; `fast`, the
 * rest (images and PDFs, upload sweeps), which never wait behind a print.
 */
export const LANES = ['fast', 'print'] as const;
export type JobLane = (typeof LANES)[number];

/** How long a finished job still counts against its owner when the next claim picks an owner. */
export const FAIRNESS_WINDOW_MS = 60_000;

/** Ready jobs of the given kinds (and lane): queued and due, or running with an expired lease. */
export function readyJobs(kinds: string[], now: Date, lane?: JobLane): SQL | undefined {
  return and(
    inArray(jobs.kind, kinds),
    lane ? eq(jobs.lane, lane) : undefined,
    or(
      and(eq(jobs.status, 'queued'), lte(jobs.runAfter, now)),
      and(eq(jobs.status, 'running'), lt(jobs.lockedUntil, now)),
    ),
  );
}

/**
 * The claim's order: the owners with no job running in the job's lane, then with the fewest running
 * in any lane, then with the least work finished within the window; then the oldest job.
 */
export function claimOrder(now: Date): SQL[] {
  const since = new Date(now.getTime() - FAIRNESS_WINDOW_MS).toISOString();
  const running = sql`(select count(*) from ${jobs} as mine where mine.owner = ${jobs.owner} and mine.status = 'running')`;
  const runningInLane = sql`(select count(*) from ${jobs} as mine where mine.owner = ${jobs.owner} and mine.status = 'running' and mine.lane = ${jobs.lane})`;
  const recent = sql`(select count(*) from ${jobs} as mine where mine.owner = ${jobs.owner} and mine.status in ('done', 'failed') and mine.updated_at > ${since}::timestamptz)`;
  return [runningInLane, running, recent, asc(jobs.runAfter), asc(jobs.id)];
}
