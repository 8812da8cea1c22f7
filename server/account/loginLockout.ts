/**
 * The login lockout (SECURITY.md REQ-ID-2), shared by applicants and staff: per typed username (known
 * or not, so a lockout reveals nothing), exponential after the 5th failure and a hard stop at 100.
 * Staff count under their own usernames (`server/staff/`), so the two kinds never lock each other.
 */
import { sql, type SQL } from 'drizzle-orm';
import { serverMessages } from '../../contract';
import type { Database } from '../db/client';
import { HttpError } from '../errors';
import type { ServiceContext } from '../http/context';

/** REQ-ID-2: the lockout starts after the 5th failure, 2^(n−5) seconds, at most 15 minutes. */
export const LOCKOUT_AFTER = 5;
export const LOCKOUT_CAP_S = 900;
/** The failure counter resets after 15 minutes without attempts. */
export const LOCKOUT_RESET_MS = 15 * 60 * 1000;
/** NIST SP 800-63B 5.2.2: at most 100 consecutive failures, then a hard stop until a password reset. */
export const HARD_STOP_AFTER = 100;

/** Rows of a raw statement (both drivers answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * Two common table expressions that delete the lockout and then the failure streak of a username
 * (the lockout's row first, as the gate locks them), for a statement of the caller's.
 */
export function clearFailuresCtes(tenantId: string, name: string): SQL {
  return sql`cleared_lockout as (
      delete from login_throttle where tenant_id = ${tenantId} and username = ${name} returning 1
    ), cleared_streak as (
      delete from login_failure_streaks where tenant_id = ${tenantId} and username = ${name}
        and (select count(*) from cleared_lockout) >= 0
      returning 1
    )`;
}

export async function clearFailureStreak(ctx: ServiceContext, tenantId: string, email: string) {
  await ctx.db.execute(
    sql`delete from login_failure_streaks where tenant_id = ${tenantId} and username = ${email}`,
  );
}

/** The applicant account of the typed address, read by the gate's own statement. */
export interface GateAccount {
  readonly id: string;
  readonly passwordHash: string;
  readonly confirmed: boolean;
}

/** What the gate in front of a password check decided. */
export type LoginGate =
  | { readonly open: true; readonly account: GateAccount | null }
  | { readonly open: false; readonly refusal: HttpError };

interface GateRow {
  streak: number;
  user_id: string | null;
  password_hash: string | null;
  confirmed: boolean | null;
}

/**
 * The gate in front of the password check (REQ-ID-2): refuses a hard-stopped or locked username, and
 * otherwise counts this attempt as a failure before the password is checked (D67), so fifty
 * parallel attempts cannot all pass as the first. A success takes the count back.
 *
 * One statement (D122): the lockout row's upsert takes its row lock and sees the latest committed
 * count, so parallel attempts are counted one after another; the streak is counted only for an
 * attempt that passed the lockout, and an attempt whose count goes past the hard stop is refused.
 * `applicantEmail` also reads that applicant's account in the same statement.
 */
export async function reserveLoginAttempt(
  ctx: Pick<ServiceContext, 'db'>,
  tenantId: string,
  name: string,
  now: Date,
  applicantEmail?: string,
): Promise<LoginGate> {
  const resetBefore = new Date(now.getTime() - LOCKOUT_RESET_MS);
  const next = sql`(case when t.last_attempt_at <= ${at(resetBefore)} then 0 else t.failures end + 1)`;
  const account = applicantEmail
    ? sql`left join users u on u.tenant_id = ${tenantId} and u.email = ${applicantEmail}`
    : sql`left join users u on false`;
  const result = await ctx.db.execute(sql`with gate as (
      insert into login_throttle as t (tenant_id, username, failures, locked_until, last_attempt_at)
      values (${tenantId}, ${name}, 1, ${lockedUntil(1, now)}::timestamptz, ${at(now)})
      on conflict (tenant_id, username) do update set
        failures = ${next},
        locked_until = case when ${next} >= ${LOCKOUT_AFTER}
          then ${at(now)} + least(power(2, ${next} - ${LOCKOUT_AFTER}), ${LOCKOUT_CAP_S}) * interval '1 second'
          end,
        last_attempt_at = ${at(now)}
      where (t.locked_until is null or t.locked_until <= ${at(now)})
        and not exists (select 1 from login_failure_streaks s where s.tenant_id = ${tenantId}
          and s.username = ${name} and s.failures >= ${HARD_STOP_AFTER})
      returning 1
    ), streak as (
      insert into login_failure_streaks as s (tenant_id, username, failures, updated_at)
      select ${tenantId}, ${name}, 1, ${at(now)} from gate
      on conflict (tenant_id, username) do update set failures = s.failures + 1, updated_at = ${at(now)}
      returning s.failures
    )
    select streak.failures as streak, u.id as user_id, u.password_hash,
      u.confirmed_at is not null as confirmed
    from streak ${account}`);
  const [row] = rowsOf<GateRow>(result);
  // Counted one past the hard stop: a parallel attempt took the last one.
  if (row && row.streak <= HARD_STOP_AFTER)
    return {
      open: true,
      account: row.user_id
        ? { id: row.user_id, passwordHash: row.password_hash as string, confirmed: !!row.confirmed }
        : null,
    };
  return { open: false, refusal: await refusalOf(ctx.db, tenantId, name, now) };
}

/** The lockout's end for a count of failures (null below the threshold). */
function lockedUntil(failures: number, now: Date): string | null {
  if (failures < LOCKOUT_AFTER) return null;
  const seconds = Math.min(2 ** (failures - LOCKOUT_AFTER), LOCKOUT_CAP_S);
  return new Date(now.getTime() + seconds * 1000).toISOString();
}

/** Why the gate refused: the hard stop first, else the lockout's remaining seconds. */
async function refusalOf(
  db: Database,
  tenantId: string,
  name: string,
  now: Date,
): Promise<HttpError> {
  const [state] = rowsOf<{ streak: number | null; locked_ms: number | null }>(
    await db.execute(sql`select
      (select failures from login_failure_streaks where tenant_id = ${tenantId} and username = ${name}) as streak,
      (select (extract(epoch from locked_until) * 1000)::float8 from login_throttle
        where tenant_id = ${tenantId} and username = ${name}) as locked_ms`),
  );
  if ((state?.streak ?? 0) >= HARD_STOP_AFTER)
    return new HttpError(429, serverMessages.loginStopped);
  // Attempts during a lockout neither count nor extend it. A lockout that ended between the two
  // statements still refuses this attempt, for the one second it takes to try again.
  const lockedMs = Number(state?.locked_ms ?? 0);
  const seconds = Math.max(1, Math.ceil((lockedMs - now.getTime()) / 1000));
  return new HttpError(429, serverMessages.lockedOut(seconds));
}

/** A success clears the lockout and the consecutive-failure count (the attempt was counted ahead). */
export async function clearLoginFailures(
  ctx: Pick<ServiceContext, 'db'>,
  tenantId: string,
  name: string,
) {
  await ctx.db.execute(sql`with ${clearFailuresCtes(tenantId, name)} select 1`);
}
