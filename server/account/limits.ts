/**
 * Per-account limits over a rolling hour (SECURITY.md REQ-ID-1, REQ-ID-3), kept in the database so
 * every server process shares them. Keyed by the typed username, known or not, so they reveal nothing.
 */
import { and, count, eq, gt, lt } from 'drizzle-orm';
import { accountEvents } from '../db/schema';
import { underAccountLock } from './accountLock';
import type { ServiceContext } from '../http/context';

export const HOUR_MS = 60 * 60 * 1000;

export const ACCOUNT_LIMITS = {
  /** ConfirmSignUp: 15 per account per hour. */
  confirm: 15,
  /** ResendConfirmationCode (and codes sent by sign-up): 5 per account per hour. */
  code: 5,
  /** Reset-link requests: 5 per account per hour. */
  resetRequest: 5,
  /** Reset-link uses: 5 per account per hour. */
  resetTry: 5,
} as const;

export type LimitKind = keyof typeof ACCOUNT_LIMITS;

/**
 * Records one event and tells whether the account was still within its limit before it. The count
 * and the record are one step under the account's lock, so a burst of parallel requests gets exactly
 * the limit's number of `true` (D67).
 */
export async function takeFromLimit(
  ctx: Pick<ServiceContext, 'db' | 'config'>,
  tenantId: string,
  username: string,
  kind: LimitKind,
): Promise<boolean> {
  const now = ctx.config.now();
  const since = new Date(now.getTime() - HOUR_MS);
  return underAccountLock(ctx, tenantId, `limit:${kind}`, username, async (tx) => {
    const [row] = await tx
      .select({ n: count() })
      .from(accountEvents)
      .where(
        and(
          eq(accountEvents.tenantId, tenantId),
          eq(accountEvents.username, username),
          eq(accountEvents.kind, kind),
          gt(accountEvents.at, since),
        ),
      );
    const used = Number(row?.n ?? 0);
    if (used >= ACCOUNT_LIMITS[kind]) return false;
    await tx.insert(accountEvents).values({ tenantId, username, kind, at: now });
    return true;
  });
}

/** Drops events older than the window (called now and then, so the table stays small). */
export async function pruneAccountEvents(ctx: ServiceContext): Promise<void> {
  await ctx.db
    .delete(accountEvents)
    .where(lt(accountEvents.at, new Date(ctx.config.now().getTime() - HOUR_MS)));
}
