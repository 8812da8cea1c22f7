/**
 * Finished jobs are deleted after their retention (D136): a job row holds ids only (the outcome is
 * the document's or the PDF's own row), and a table that keeps every job of a season makes every
 * claim slower. Done jobs go after `doneMs`, failed ones after `failedMs` (kept longer, for an
 * operator to see); queued and running jobs never. Deleted in batches, each a short statement.
 */
import { and, eq, inArray, lt, or } from 'drizzle-orm';
import type { JobRetention } from '../config';
import type { Database } from '../db/client';
import { jobs } from '../db/schema';

/** Rows deleted per statement. */
export const PRUNE_BATCH = 1000;
/** Batches per pass at most: what is left waits for the next pass. */
export const PRUNE_MAX_BATCHES = 100;

/** Deletes the finished jobs past their retention at `now`; returns how many. */
export async function pruneJobs(db: Database, now: Date, retention: JobRetention): Promise<number> {
  const expired = or(
    and(eq(jobs.status, 'done'), lt(jobs.updatedAt, new Date(now.getTime() - retention.doneMs))),
    and(
      eq(jobs.status, 'failed'),
      lt(jobs.updatedAt, new Date(now.getTime() - retention.failedMs)),
    ),
  );
  let pruned = 0;
  for (let batch = 0; batch < PRUNE_MAX_BATCHES; batch++) {
    const batchIds = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(expired)
      .limit(PRUNE_BATCH)
      .for('update', { skipLocked: true });
    const deleted = await db
      .delete(jobs)
      .where(inArray(jobs.id, batchIds))
      .returning({ id: jobs.id });
    pruned += deleted.length;
    if (deleted.length < PRUNE_BATCH) break;
  }
  return pruned;
}
