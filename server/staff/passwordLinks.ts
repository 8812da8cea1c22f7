/**
 * The staff password links (D157, D166): what a live invitation is for, for the join page, and
 * "Forgot password?" for staff. A reset link is mailed only to an active account, answered the same
 * whether or not one exists, limited per address as the applicant's (REQ-ID-3), claimed by one
 * conditional statement, and sets the password only: the authenticator stays, so the next sign-in
 * still asks for its code, and every session of the account ends.
 */
import { and, eq, gt, isNotNull, isNull, ne } from 'drizzle-orm';
import { staffMessages } from '../../contract/staff';
import { staffPasswordMessages, type StaffInvitation } from '../../contract/staffPassword';
import { staffInvitations, staffPasswordResets, staffUsers } from '../db/schema';
import { HttpError } from '../errors';
import { issueToken, sha256 } from '../secrets';
import {
  assertUncommon,
  clearLoginFailures,
  normalizeEmail,
  RESET_VALIDITY_MS,
  takeFromLimit,
} from '../account';
import type { ServiceContext } from '../http/context';
import { passwordName } from './accounts';
import { audit } from '../db/auditTrail';
import { endAllStaffSessions } from './sessions';

/** The console's page for a reset link, on the tenant's own origin, never the Host header (D196). */
export function resetLink(ctx: ServiceContext, tenantId: string, token: string): string {
  return `${ctx.originOf(tenantId)}/staff/reset?token=${encodeURIComponent(token)}`;
}

/**
 * The address and role of a live invitation (D157): what its holder was sent. A used, expired,
 * replaced or unknown one, or one whose account was disabled, answers as `joinStaff` refuses it.
 */
export async function invitationOf(
  ctx: ServiceContext,
  tenantId: string,
  token: string,
): Promise<StaffInvitation> {
  const [row] = await ctx.db
    .select({ email: staffUsers.email, role: staffUsers.role })
    .from(staffInvitations)
    .innerJoin(staffUsers, eq(staffUsers.id, staffInvitations.staffUserId))
    .where(
      and(
        eq(staffInvitations.tokenHash, sha256(token)),
        eq(staffInvitations.tenantId, tenantId),
        isNull(staffInvitations.usedAt),
        gt(staffInvitations.expiresAt, ctx.config.now()),
        isNull(staffUsers.disabledAt),
      ),
    );
  if (!row) throw new HttpError(400, staffMessages.invitationInvalid);
  return row;
}

/** An id no account has: an unknown address's request deletes by it, so nothing. */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

/** Mails a reset link to an active staff account; the answer is the same for any address. */
export async function forgotStaffPassword(
  ctx: ServiceContext,
  tenantId: string,
  rawEmail: string,
): Promise<string> {
  const email = normalizeEmail(rawEmail);
  if (!(await takeFromLimit(ctx, tenantId, passwordName(email), 'resetRequest')))
    return staffPasswordMessages.forgotSent;
  const [user] = await ctx.db
    .select({ id: staffUsers.id })
    .from(staffUsers)
    .where(
      and(
        eq(staffUsers.tenantId, tenantId),
        eq(staffUsers.email, email),
        isNotNull(staffUsers.passwordHash),
        isNull(staffUsers.disabledAt),
      ),
    );
  const now = ctx.config.now();
  const { token, hash, expiresAt } = issueToken(now, RESET_VALIDITY_MS);
  await ctx.db.transaction(async (tx) => {
    // A newer request supersedes the older links; without an account, the same statement finds
    // nothing to delete, so the answer takes the same path (D53).
    await tx
      .delete(staffPasswordResets)
      .where(
        and(
          eq(staffPasswordResets.tenantId, tenantId),
          eq(staffPasswordResets.staffUserId, user?.id ?? NO_ACCOUNT),
        ),
      );
    if (!user) return;
    await tx
      .insert(staffPasswordResets)
      .values({ tokenHash: hash, tenantId, staffUserId: user.id, expiresAt, createdAt: now });
    await ctx.mail.send(
      tenantId,
      {
        template: 'staffReset',
        to: email,
        args: [resetLink(ctx, tenantId, token)],
        event: hash,
        expiresAt,
      },
      { db: tx },
    );
  });
  return staffPasswordMessages.forgotSent;
}

/**
 * Uses a reset link: claimed (marked used) in one statement before the new password is hashed, so
 * of many parallel uses exactly one goes on (D67); the claim is given back only if hashing or
 * storing fails. Counted against the account's hourly limit of tries before the claim.
 */
export async function resetStaffPassword(
  ctx: ServiceContext,
  tenantId: string,
  token: string,
  password: string,
): Promise<string> {
  const fail = new HttpError(400, staffPasswordMessages.resetFailed);
  const tokenHash = sha256(token);
  const [link] = await ctx.db
    .select({ staffUserId: staffPasswordResets.staffUserId, email: staffUsers.email })
    .from(staffPasswordResets)
    .innerJoin(staffUsers, eq(staffUsers.id, staffPasswordResets.staffUserId))
    .where(
      and(eq(staffPasswordResets.tokenHash, tokenHash), eq(staffPasswordResets.tenantId, tenantId)),
    );
  if (!link) throw fail;
  if (!(await takeFromLimit(ctx, tenantId, passwordName(link.email), 'resetTry'))) throw fail;
  assertUncommon(password);
  const now = ctx.config.now();
  const thisLink = and(
    eq(staffPasswordResets.tokenHash, tokenHash),
    eq(staffPasswordResets.tenantId, tenantId),
  );
  const [claimed] = await ctx.db
    .update(staffPasswordResets)
    .set({ usedAt: now })
    .where(
      and(thisLink, isNull(staffPasswordResets.usedAt), gt(staffPasswordResets.expiresAt, now)),
    )
    .returning({ staffUserId: staffPasswordResets.staffUserId });
  if (!claimed) throw fail;
  let changed: boolean;
  try {
    const passwordHash = await ctx.hasher.hash(password);
    changed = await ctx.db.transaction(async (tx) => {
      const [user] = await tx
        .update(staffUsers)
        .set({ passwordHash })
        .where(and(eq(staffUsers.id, link.staffUserId), isNull(staffUsers.disabledAt)))
        .returning({ id: staffUsers.id });
      if (!user) return false;
      await tx
        .delete(staffPasswordResets)
        .where(
          and(
            eq(staffPasswordResets.tenantId, tenantId),
            eq(staffPasswordResets.staffUserId, link.staffUserId),
            ne(staffPasswordResets.tokenHash, tokenHash),
          ),
        );
      // One notice per reset: the link that changed the password names it.
      await ctx.mail.send(
        tenantId,
        { template: 'passwordChanged', to: link.email, args: [], event: tokenHash },
        { db: tx },
      );
      return true;
    });
  } catch (error) {
    await ctx.db.update(staffPasswordResets).set({ usedAt: null }).where(thisLink);
    throw error;
  }
  // A disabled account keeps its refusal: the link is spent, nothing else changes.
  if (!changed) throw fail;
  // The password's lockout and hard stop end with the reset; the code's lockout does not (D166).
  await clearLoginFailures(ctx, tenantId, passwordName(link.email));
  await endAllStaffSessions(ctx, tenantId, link.staffUserId);
  await audit(
    ctx,
    { tenantId, staffUserId: link.staffUserId, name: link.email },
    'staff.password_reset',
  );
  return staffPasswordMessages.resetDone;
}
