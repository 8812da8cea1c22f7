/**
 * The login lockout (SECURITY.md REQ-ID-2), shared by applicants and staff: per typed username (known
 * or not, so a lockout reveals nothing), exponential after the 5th failure and a hard stop at 100.
 * Staff count under their own usernames (`server/staff/`), so the two kinds never lock each other.
 */
import { and, eq, sql } from 'drizzle-orm';
import { serverMessages } from '../../contract';
import { loginFailureStreaks, loginThrottle } from '../db/schema';
import { HttpError } from '../errors';
import { underAccountLock } from './accountLock';
import type { ServiceContext } from './context';

/** REQ-ID-2: the lockout starts after the 5th failure, 2^(n−5) seconds, at most 15 minutes. */
export const LOCKOUT_AFTER = 5;
export const LOCKOUT_CAP_S = 900;
/** The failure counter resets after 15 minutes without attempts. */
export const LOCKOUT_RESET_MS = 15 * 60 * 1000;
/** NIST SP 800-63B 5.2.2: at most 100 consecutive failures, then a hard stop until a password reset. */
export const HARD_STOP_AFTER = 100;

export async function clearFailureStreak(ctx: ServiceContext, tenantId: string, email: string) {
  await ctx.db
    .delete(loginFailureStreaks)
    .where(
      and(eq(loginFailureStreaks.tenantId, tenantId), eq(loginFailureStreaks.username, email)),
    );
}

/** What the gate in front of a password check decided. */
export type LoginGate =
  { readonly open: true } | { readonly open: false; readonly refusal: HttpError };

/**
 * The gate in front of the password check (REQ-ID-2): refuses a hard-stopped or locked username, and
 * otherwise counts this attempt as a failure before the password is checked (issue 15.1), so fifty
 * parallel attempts cannot all pass as the first. A success takes the count back.
 */
export async function reserveLoginAttempt(
  ctx: ServiceContext,
  tenantId: string,
  email: string,
  now: Date,
): Promise<LoginGate> {
  return underAccountLock(ctx, tenantId, 'login', email, async (tx) => {
    const byUsername = (table: typeof loginThrottle | typeof loginFailureStreaks) =>
      and(eq(table.tenantId, tenantId), eq(table.username, email));
    const [throttle] = await tx.select().from(loginThrottle).where(byUsername(loginThrottle));
    const [streak] = await tx
      .select({ failures: loginFailureStreaks.failures })
      .from(loginFailureStreaks)
      .where(byUsername(loginFailureStreaks));
    if (streak && streak.failures >= HARD_STOP_AFTER)
      return { open: false, refusal: new HttpError(429, serverMessages.loginStopped) };
    if (throttle?.lockedUntil && throttle.lockedUntil > now) {
      // Attempts during a lockout neither count nor extend it.
      const seconds = Math.ceil((throttle.lockedUntil.getTime() - now.getTime()) / 1000);
      return { open: false, refusal: new HttpError(429, serverMessages.lockedOut(seconds)) };
    }
    const stale = !throttle || now.getTime() - throttle.lastAttemptAt.getTime() >= LOCKOUT_RESET_MS;
    const failures = (stale ? 0 : throttle.failures) + 1;
    const lockedUntil =
      failures >= LOCKOUT_AFTER
        ? new Date(now.getTime() + Math.min(2 ** (failures - LOCKOUT_AFTER), LOCKOUT_CAP_S) * 1000)
        : null;
    await tx
      .insert(loginThrottle)
      .values({ tenantId, username: email, failures, lockedUntil, lastAttemptAt: now })
      .onConflictDoUpdate({
        target: [loginThrottle.tenantId, loginThrottle.username],
        set: { failures, lockedUntil, lastAttemptAt: now },
      });
    await tx
      .insert(loginFailureStreaks)
      .values({ tenantId, username: email, failures: 1, updatedAt: now })
      .onConflictDoUpdate({
        target: [loginFailureStreaks.tenantId, loginFailureStreaks.username],
        set: { failures: sql`${loginFailureStreaks.failures} + 1`, updatedAt: now },
      });
    return { open: true };
  });
}

/** A success clears the lockout and the consecutive-failure count (the attempt was counted ahead). */
export async function clearLoginFailures(ctx: ServiceContext, tenantId: string, email: string) {
  await ctx.db
    .delete(loginThrottle)
    .where(and(eq(loginThrottle.tenantId, tenantId), eq(loginThrottle.username, email)));
  await clearFailureStreak(ctx, tenantId, email);
}
