/**
 * Staff sessions: their own table and cookie (`staff`, `__Host-staff` over https), never the
 * applicant's. A session starts when the password is right and is verified by the second factor;
 * until then it opens nothing but enrolment and the code check, for 5 minutes. Idle after 20
 * minutes, ended after 8 hours in any case. The cookie holds a random id; the table only its hash.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StaffRole } from '../../contract/staff';
import type { ServerConfig } from '../config';
import { staffSessions, staffUsers } from '../db/schema';
import { issueToken, sha256 } from '../secrets';
import type { ServiceContext } from '../http/context';

export const STAFF_IDLE_TIMEOUT_MS = 20 * 60 * 1000;
export const STAFF_ABSOLUTE_TIMEOUT_MS = 8 * 60 * 60 * 1000;
export const STAFF_PENDING_TIMEOUT_MS = 5 * 60 * 1000;
const TOUCH_EVERY_MS = 5_000;

export interface StaffSession {
  readonly tenantId: string;
  readonly staffUserId: string;
  readonly email: string;
  readonly role: StaffRole;
  readonly sessionHash: string;
  readonly verified: boolean;
  readonly enrolled: boolean;
}

/** The staff session of a request past the staff routes' gate (which refuses one without). */
export const staffOf = (request: FastifyRequest): StaffSession => request.staff as StaffSession;

export function staffCookieName(config: ServerConfig): string {
  return config.secureCookies ? '__Host-staff' : 'staff';
}

const cookieOptions = (config: ServerConfig) => ({
  path: '/',
  sameSite: 'strict' as const,
  secure: config.secureCookies,
  httpOnly: true,
});

export function setStaffCookie(reply: FastifyReply, config: ServerConfig, id: string): void {
  reply.setCookie(staffCookieName(config), id, cookieOptions(config));
}

export function clearStaffCookie(reply: FastifyReply, config: ServerConfig): void {
  reply.clearCookie(staffCookieName(config), cookieOptions(config));
}

/** A 401's answer clears the cookie only if its request carried one: a late answer must not end a newer sign-in. */
export function clearCarriedStaffCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  config: ServerConfig,
): void {
  if (request.cookies[staffCookieName(config)] !== undefined) clearStaffCookie(reply, config);
}

export async function createStaffSession(
  ctx: ServiceContext,
  tenantId: string,
  staffUserId: string,
): Promise<string> {
  const now = ctx.config.now();
  const { token, hash, expiresAt } = issueToken(now, STAFF_PENDING_TIMEOUT_MS);
  await ctx.db.insert(staffSessions).values({
    idHash: hash,
    tenantId,
    staffUserId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
  });
  return token;
}

/** The second factor passed: the session opens the console, for up to 8 hours. */
export async function verifyStaffSession(ctx: ServiceContext, sessionHash: string): Promise<void> {
  const now = ctx.config.now();
  await ctx.db
    .update(staffSessions)
    .set({
      verifiedAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + STAFF_ABSOLUTE_TIMEOUT_MS),
    })
    .where(and(eq(staffSessions.idHash, sessionHash), isNull(staffSessions.verifiedAt)));
}

/** The live staff session of the request's staff cookie in this tenant, touched; null otherwise. */
export async function resolveStaffSession(
  ctx: ServiceContext,
  request: FastifyRequest,
): Promise<StaffSession | null> {
  const id = request.cookies[staffCookieName(ctx.config)];
  if (!id || id.length > 100) return null;
  const idHash = sha256(id);
  const tenantId = request.tenant.id;
  const [row] = await ctx.db
    .select({
      staffUserId: staffSessions.staffUserId,
      verifiedAt: staffSessions.verifiedAt,
      lastSeenAt: staffSessions.lastSeenAt,
      expiresAt: staffSessions.expiresAt,
      email: staffUsers.email,
      role: staffUsers.role,
      disabledAt: staffUsers.disabledAt,
      enrolledAt: staffUsers.totpEnrolledAt,
    })
    .from(staffSessions)
    .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.staffUserId))
    .where(and(eq(staffSessions.idHash, idHash), eq(staffSessions.tenantId, tenantId)));
  if (!row) return null;
  const now = ctx.config.now().getTime();
  if (
    row.disabledAt ||
    now - row.lastSeenAt.getTime() > STAFF_IDLE_TIMEOUT_MS ||
    now >= row.expiresAt.getTime()
  ) {
    await ctx.db.delete(staffSessions).where(eq(staffSessions.idHash, idHash));
    return null;
  }
  if (now - row.lastSeenAt.getTime() > TOUCH_EVERY_MS)
    await ctx.db
      .update(staffSessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(staffSessions.idHash, idHash));
  return {
    tenantId,
    staffUserId: row.staffUserId,
    email: row.email,
    role: row.role,
    sessionHash: idHash,
    verified: row.verifiedAt !== null,
    enrolled: row.enrolledAt !== null,
  };
}

export async function endStaffSession(ctx: ServiceContext, sessionHash: string): Promise<void> {
  await ctx.db.delete(staffSessions).where(eq(staffSessions.idHash, sessionHash));
}

export async function endAllStaffSessions(
  ctx: ServiceContext,
  tenantId: string,
  staffUserId: string,
): Promise<void> {
  await ctx.db
    .delete(staffSessions)
    .where(and(eq(staffSessions.tenantId, tenantId), eq(staffSessions.staffUserId, staffUserId)));
}
