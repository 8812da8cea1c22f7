/**
 * Retention (D153, GDPR art. 5(1)(e)): one sweep, run by the job worker with the pruning of finished
 * jobs, deletes what is no longer needed. An application never submitted goes with its account
 * `retention.unsubmitted_months` (the institution file) after its last change, a reminder mailed a
 * month before, once; the other windows are `RETENTION_WINDOWS`. Rows are claimed with SKIP LOCKED
 * and checked again under their lock, so two workers sweeping at once delete each row once and send
 * each reminder once.
 */
import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { collegeDate } from '../contract/collegeTime';
import {
  confirmationCodes,
  loginFailureStreaks,
  loginThrottle,
  resetTokens,
  staffPasswordResets,
  serviceTokenRevocations,
  sessions,
  tmpAnswers,
} from './db/schema';
import { runInTenant } from './db/tenantScope';
import type { JobKind, JobQueue } from './jobs/queue';
import { expirePdfBundles } from './staff';
import {
  deleteAccountRows,
  notedObjects,
  removeNotedObjects,
  type DeletionContext,
  pruneAccountEvents,
} from './account';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long each kind of row is kept after it stops being of use (docs/privacy.md quotes these).
 * Unused upload forms and their files go 15 minutes after the form was handed out (the upload
 * sweep job, D71); finished jobs after their retention (D136); the rolling hour's account events
 * (./limits.ts) after that hour.
 */
export const RETENTION_WINDOWS = {
  /** A session after it expired (it is refused from then on; kept for nothing). */
  expiredSessionsMs: 0,
  /** Temporary answers after their link expired. */
  expiredTmpAnswersMs: 0,
  /** Confirmation codes and reset links (the staff's too) after they expired. */
  expiredCodesMs: 0,
  /** Service-link revocations after the link's own expiry. */
  expiredRevocationsMs: 0,
  /** Per-address login throttling after the last attempt. */
  loginThrottleMs: DAY_MS,
  /** Consecutive login failures (the hard stop) after the last failure. */
  loginFailureStreaksMs: 90 * DAY_MS,
  /** A staff member's ZIP of PDFs (D169) after it was finished. */
  pdfBundlesMs: DAY_MS,
  /** The reminder goes this long before an unsubmitted application's deletion. */
  reminderBeforeMs: 30 * DAY_MS,
} as const;

/** Accounts handled per statement and sweep: what is left waits for the next sweep. */
export const RETENTION_BATCH = 100;

export interface RetentionOutcome {
  reminded: number;
  deleted: number;
  rows: number;
  objects: number;
}

/** A sweep of every tenant (the worker's scheduled pass). */
export async function sweepRetention(
  ctx: DeletionContext,
  tenantIds: readonly string[],
): Promise<RetentionOutcome> {
  const total: RetentionOutcome = { reminded: 0, deleted: 0, rows: 0, objects: 0 };
  for (const tenantId of tenantIds) {
    const outcome = await runInTenant(tenantId, () => sweepTenant(ctx, tenantId));
    for (const key of Object.keys(total) as (keyof RetentionOutcome)[]) total[key] += outcome[key];
  }
  return total;
}

/**
 * The accounts whose application is not submitted and whose last change (the account's creation
 * when it has no application) meets `condition`, locked (SKIP LOCKED: another sweep's are passed).
 */
const unsubmitted = (tenantId: string, condition: SQL, limit: number) => sql`
  select u.id, u.email from users u
  left join applications a on a.tenant_id = u.tenant_id and a.user_id = u.id
  cross join lateral (select coalesce(a.updated_at, u.created_at) as last_activity) l
  where u.tenant_id = ${tenantId} and a.submitted_at is null and ${condition}
  limit ${limit}
  for update of u skip locked`;

type Rows<T> = { rows: T[] };

export async function sweepTenant(
  ctx: DeletionContext,
  tenantId: string,
): Promise<RetentionOutcome> {
  const now = ctx.config.now();
  const months = ctx.institutionOf(tenantId).retention.unsubmitted_months;
  const deleteBefore = sql`${now.toISOString()}::timestamptz - make_interval(months => ${months})`;
  const remindBefore = sql`${deleteBefore} + make_interval(secs => ${RETENTION_WINDOWS.reminderBeforeMs / 1000})`;
  const noticeGivenBy = new Date(now.getTime() - RETENTION_WINDOWS.reminderBeforeMs).toISOString();

  // Reminders: claimed (stamped) and queued in one transaction; activity after a reminder calls
  // for a new one.
  const reminded = await ctx.db.transaction(async (tx) => {
    const claimed = (await tx.execute(sql`
      update users set retention_reminded_at = ${now.toISOString()}::timestamptz
      where id in (select id from (${unsubmitted(
        tenantId,
        sql`l.last_activity < ${remindBefore}
          and (u.retention_reminded_at is null or u.retention_reminded_at < l.last_activity)`,
        RETENTION_BATCH,
      )}) due)
      returning id, email`)) as unknown as Rows<{ id: string; email: string }>;
    for (const row of claimed.rows) {
      // "May 3, 2027": the college's day, in words (D197).
      const deleteOn = collegeDate(
        new Date(now.getTime() + RETENTION_WINDOWS.reminderBeforeMs),
        ctx.institutionOf(tenantId).time_zone,
      );
      await ctx.mail.send(
        tenantId,
        {
          template: 'retentionReminder',
          to: row.email,
          args: [deleteOn],
          event: `${row.id}:${now.toISOString()}`,
        },
        { db: tx },
      );
    }
    return claimed.rows.length;
  });

  // Deletions: past the window, and told at least the notice's time ago.
  const pastNotice = sql`l.last_activity < ${deleteBefore}
    and u.retention_reminded_at >= l.last_activity
    and u.retention_reminded_at <= ${noticeGivenBy}::timestamptz`;
  const due = (await ctx.db.execute(
    sql`select id from (${unsubmitted(tenantId, pastNotice, RETENTION_BATCH)}) due`,
  )) as unknown as Rows<{ id: string }>;
  let deleted = 0;
  const keys: string[] = [];
  for (const { id } of due.rows) {
    const removed = await ctx.db.transaction(async (tx) => {
      const locked = (await tx.execute(
        unsubmitted(tenantId, sql`u.id = ${id} and ${pastNotice}`, 1),
      )) as unknown as Rows<{ email: string }>;
      const email = locked.rows[0]?.email;
      if (!email) return null;
      return deleteAccountRows(
        tx,
        ctx,
        { tenantId, userId: id, email },
        { tenantId, staffUserId: null, name: 'retention' },
      );
    });
    if (removed) {
      deleted++;
      keys.push(...removed);
    }
  }

  const rows = await expireRows(ctx, tenantId, now);
  keys.push(
    ...(await expirePdfBundles(
      ctx,
      tenantId,
      new Date(now.getTime() - RETENTION_WINDOWS.pdfBundlesMs),
    )),
  );
  await pruneAccountEvents(ctx);
  const objects = await removeNotedObjects(ctx, tenantId, [
    ...keys,
    ...(await notedObjects(ctx, tenantId, RETENTION_BATCH)).filter((key) => !keys.includes(key)),
  ]);
  return { reminded, deleted, rows, objects };
}

/** Each kind of row that expires: its table, the columns of its tenant and its time, its window. */
const EXPIRING: readonly {
  readonly table: PgTable;
  readonly tenant: PgColumn;
  readonly at: PgColumn;
  readonly windowMs: number;
}[] = [
  {
    table: sessions,
    tenant: sessions.tenantId,
    at: sessions.expiresAt,
    windowMs: RETENTION_WINDOWS.expiredSessionsMs,
  },
  {
    table: tmpAnswers,
    tenant: tmpAnswers.tenantId,
    at: tmpAnswers.expiresAt,
    windowMs: RETENTION_WINDOWS.expiredTmpAnswersMs,
  },
  {
    table: confirmationCodes,
    tenant: confirmationCodes.tenantId,
    at: confirmationCodes.expiresAt,
    windowMs: RETENTION_WINDOWS.expiredCodesMs,
  },
  {
    table: resetTokens,
    tenant: resetTokens.tenantId,
    at: resetTokens.expiresAt,
    windowMs: RETENTION_WINDOWS.expiredCodesMs,
  },
  {
    table: staffPasswordResets,
    tenant: staffPasswordResets.tenantId,
    at: staffPasswordResets.expiresAt,
    windowMs: RETENTION_WINDOWS.expiredCodesMs,
  },
  {
    table: serviceTokenRevocations,
    tenant: serviceTokenRevocations.tenantId,
    at: serviceTokenRevocations.expiresAt,
    windowMs: RETENTION_WINDOWS.expiredRevocationsMs,
  },
  {
    table: loginThrottle,
    tenant: loginThrottle.tenantId,
    at: loginThrottle.lastAttemptAt,
    windowMs: RETENTION_WINDOWS.loginThrottleMs,
  },
  {
    table: loginFailureStreaks,
    tenant: loginFailureStreaks.tenantId,
    at: loginFailureStreaks.updatedAt,
    windowMs: RETENTION_WINDOWS.loginFailureStreaksMs,
  },
];

/** The rows past their window (`RETENTION_WINDOWS`); returns how many went. */
async function expireRows(ctx: DeletionContext, tenantId: string, now: Date): Promise<number> {
  let count = 0;
  for (const { table, tenant, at, windowMs } of EXPIRING) {
    const gone = await ctx.db
      .delete(table)
      .where(and(eq(tenant, tenantId), lt(at, new Date(now.getTime() - windowMs))))
      .returning({ one: sql`1` });
    count += gone.length;
  }
  return count;
}

export const RETENTION_JOB = 'retention-sweep';
/** How often the sweep runs: once per hour slot, whatever the number of workers. */
export const RETENTION_SWEEP_EVERY_MS = 60 * 60_000;

const slotKey = (slot: number) => `retention:${slot}`;

/**
 * Queues the sweep of the current hour slot, once however many processes start (the web process
 * calls it when ready); each sweep queues the next slot's before it runs, so the chain holds.
 */
export async function scheduleRetentionSweep(queue: JobQueue, now: Date): Promise<void> {
  const slot = Math.floor(now.getTime() / RETENTION_SWEEP_EVERY_MS);
  await queue.enqueueOnce(RETENTION_JOB, slotKey(slot), {});
}

/** The sweep's job kind (registered by server/jobKinds.ts). */
export function retentionSweepJob(
  ctx: DeletionContext & { readonly queue: JobQueue },
  tenantIds: () => readonly string[],
): JobKind {
  return {
    async run() {
      const now = ctx.config.now().getTime();
      const next = Math.floor(now / RETENTION_SWEEP_EVERY_MS) + 1;
      await ctx.queue.enqueueOnce(
        RETENTION_JOB,
        slotKey(next),
        {},
        {
          delayMs: next * RETENTION_SWEEP_EVERY_MS - now,
        },
      );
      const outcome = await sweepRetention(ctx, tenantIds());
      ctx.log.info({ event: 'retention.swept', ...outcome }, 'retention sweep');
    },
  };
}
