/**
 * The durable job queue that converts documents, prepares application PDFs and sends mail.
 */
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at } from './columns';

/**
 * The durable job queue (docs/decisions/ D30): claimed with FOR UPDATE SKIP LOCKED, retried with
 * attempts, and re-claimed after `locked_until` when a worker died holding it. Claimed per lane, in
 * turns between owners; finished jobs are pruned after their retention (D136).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    /** The event a job is queued for, when it must run once per event (`enqueueOnce`; D138). */
    key: text('key'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** queued, running, done or failed. */
    status: text('status').notNull().default('queued'),
    /** Which of the worker's lanes runs it: `fast`, or `print` (Chromium's slow prints, D136). */
    lane: text('lane').notNull().default('fast'),
    /** Whose work it is, for the claim's turns (D71): the payload's tenant and applicant. */
    owner: text('owner').generatedAlwaysAs(
      sql`coalesce(payload->>'tenantId', '') || '/' || coalesce(payload->>'userId', '')`,
    ),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    runAfter: at('run_after').notNull(),
    lockedUntil: at('locked_until'),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    index('jobs_ready').on(t.status, t.runAfter),
    uniqueIndex('jobs_kind_key')
      .on(t.kind, t.key)
      .where(sql`${t.key} is not null`),
    // The claim's count of an owner's running and recently finished jobs (D136).
    index('jobs_owner').on(t.owner, t.status, t.updatedAt),
    // The pruning of finished jobs past their retention.
    index('jobs_finished').on(t.status, t.updatedAt),
  ],
);
