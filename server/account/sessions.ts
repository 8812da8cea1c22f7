/**
 * Sessions live in the database (shared by every process). The cookie holds a 256-bit random id; the
 * database holds only its hash. Idle after 15 minutes, ended after 12 hours in any case.
 */
import { and, eq, sql } from 'drizzle-orm';
import { clearFailuresCtes } from './loginLockout';
import { preparedOnce } from '../db/prepared';
import { sessions, users } from '../db/schema';
import { issueToken, sha256 } from '../secrets';
import type { ServiceContext } from '../http/context';

export const IDLE_TIMEOUT_MS = 15 * 60 * 1000;
export const ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
/** lastSeen is written at most this often (saves a write per request). */
const TOUCH_EVERY_MS = 5_000;

export interface SessionUser {
  readonly tenantId: string;
  readonly userId: string;
  readonly email: string;
  readonly sessionHash: string;
}

/**
 * After a right password: clears the username's login failures, opens a session and records the
 * login (SPEC 7.2 `successful_login`), in one statement. Returns the cookie value.
 */
export async function openSessionAfterLogin(
  ctx: ServiceContext,
  tenantId: string,
  userId: string,
  username: string,
): Promise<string> {
  const now = ctx.config.now();
  const { token, hash, expiresAt } = issueToken(now, ABSOLUTE_TIMEOUT_MS);
  const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
  await ctx.db.execute(sql`with ${clearFailuresCtes(tenantId, username)},
    opened as (
      insert into sessions (id_hash, tenant_id, user_id, created_at, last_seen_at, expires_at)
      values (${hash}, ${tenantId}, ${userId}, ${at(now)}, ${at(now)}, ${at(expiresAt)})
    )
    insert into successful_logins (tenant_id, user_id, at) values (${tenantId}, ${userId}, ${at(now)})`);
  return token;
}

/** Every /api request reads its session, and touches it every few seconds: both prepared (D130). */
const sessionOf = preparedOnce((db) =>
  db
    .select({
      userId: sessions.userId,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      email: users.email,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.idHash, sql.placeholder('idHash')),
        eq(sessions.tenantId, sql.placeholder('tenantId')),
      ),
    )
    .prepare('session_of'),
);
const touchSession = preparedOnce((db) =>
  db
    .update(sessions)
    .set({ lastSeenAt: sql`${sql.placeholder('now')}::timestamptz` })
    .where(eq(sessions.idHash, sql.placeholder('idHash')))
    .prepare('session_touch'),
);

/** The live session of a cookie value in this tenant, touched; null when there is none. */
export async function resolveSession(
  ctx: ServiceContext,
  tenantId: string,
  id: string | undefined,
): Promise<SessionUser | null> {
  if (!id || id.length > 100) return null;
  const idHash = sha256(id);
  const [row] = await sessionOf(ctx.db).execute({ idHash, tenantId });
  if (!row) return null;
  const now = ctx.config.now().getTime();
  if (now - row.lastSeenAt.getTime() > IDLE_TIMEOUT_MS || now >= row.expiresAt.getTime()) {
    await ctx.db.delete(sessions).where(eq(sessions.idHash, idHash));
    return null;
  }
  if (now - row.lastSeenAt.getTime() > TOUCH_EVERY_MS)
    await touchSession(ctx.db).execute({ idHash, now: new Date(now).toISOString() });
  return { tenantId, userId: row.userId, email: row.email, sessionHash: idHash };
}

export async function endSession(ctx: ServiceContext, sessionHash: string): Promise<void> {
  await ctx.db.delete(sessions).where(eq(sessions.idHash, sessionHash));
}

/** Ends every session of a user (after a password reset). */
export async function endAllSessions(
  ctx: ServiceContext,
  tenantId: string,
  userId: string,
): Promise<void> {
  await ctx.db
    .delete(sessions)
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId)));
}
