/**
 * Staff accounts (D103): created by the command line or by an admin's invitation, never by
 * sign-up; the same password rules and lockout as applicants (REQ-ID-2, REQ-ID-5), then a TOTP
 * second factor enrolled at first sign-in, with one-time recovery codes. Every code, invitation and
 * recovery code is claimed by one conditional statement, so of parallel uses exactly one wins.
 */
import { and, asc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import {
  RECOVERY_CODE_COUNT,
  staffMessages,
  type StaffMe,
  type StaffRole,
} from '../../contract/staff';
import { staffInvitations, staffRecoveryCodes, staffUsers } from '../db/schema';
import { HttpError } from '../errors';
import { issueToken, sha256 } from '../secrets';
import {
  assertUncommon,
  clearLoginFailures,
  normalizeEmail,
  reserveLoginAttempt,
} from '../account';
import type { ServiceContext } from '../http/context';
import { audit, type Actor } from '../db/auditTrail';
import { open, seal } from '../crypto/secretBox';
import {
  createStaffSession,
  endAllStaffSessions,
  verifyStaffSession,
  type StaffSession,
} from './sessions';
import {
  enrolmentOf,
  isTotpCode,
  matchingStep,
  newRecoveryCode,
  newTotpSecret,
  normalizeRecoveryCode,
} from './totp';

export const INVITATION_VALIDITY_MS = 7 * 24 * 60 * 60 * 1000;
/** The lockout counts staff under their own names, apart from applicants with the same address. */
export const passwordName = (email: string) => `staff:${email}`;
const codeName = (staffUserId: string) => `staff-code:${staffUserId}`;

/** The console's join page with the invitation, on the tenant's own origin (D196). */
export function invitationLink(ctx: ServiceContext, tenantId: string, token: string): string {
  return `${ctx.originOf(tenantId)}/staff/join?token=${encodeURIComponent(token)}`;
}

/**
 * Adds a staff member (the command line) or invites one (an admin): the account, without a password
 * until the invitation is taken up, and a new invitation mailed to the address (older ones die). An
 * address that already has an active account is refused; one still invited is invited again.
 */
export async function inviteStaff(
  ctx: ServiceContext,
  actor: Actor,
  rawEmail: string,
  role: StaffRole,
): Promise<{ link: string; staffUserId: string }> {
  const email = normalizeEmail(rawEmail);
  const tenantId = actor.tenantId;
  const now = ctx.config.now();
  const { token, hash, expiresAt } = issueToken(now, INVITATION_VALIDITY_MS);
  const link = invitationLink(ctx, tenantId, token);
  const staffUserId = await ctx.db.transaction(async (tx) => {
    await tx
      .insert(staffUsers)
      .values({ tenantId, email, role, createdAt: now })
      .onConflictDoNothing();
    const [user] = await tx
      .select()
      .from(staffUsers)
      .where(and(eq(staffUsers.tenantId, tenantId), eq(staffUsers.email, email)))
      .for('update');
    if (!user || user.passwordHash !== null || user.disabledAt !== null)
      throw new HttpError(409, staffMessages.alreadyStaff);
    await tx.update(staffUsers).set({ role }).where(eq(staffUsers.id, user.id));
    await tx
      .delete(staffInvitations)
      .where(
        and(eq(staffInvitations.tenantId, tenantId), eq(staffInvitations.staffUserId, user.id)),
      );
    await tx
      .insert(staffInvitations)
      .values({ tokenHash: hash, tenantId, staffUserId: user.id, expiresAt, createdAt: now });
    // Queued with the invitation (D138): one mail per invitation.
    await ctx.mail.send(
      tenantId,
      { template: 'staffInvitation', to: email, args: [link, role], event: hash, expiresAt },
      { db: tx },
    );
    return user.id;
  });
  await audit(
    ctx,
    actor,
    actor.staffUserId ? 'staff.invited' : 'staff.added',
    null,
    `${email} as ${role}`,
  );
  return { link, staffUserId };
}

/** Takes up an invitation: the link is claimed in one statement, then the password is set. */
export async function joinStaff(
  ctx: ServiceContext,
  tenantId: string,
  token: string,
  password: string,
): Promise<string> {
  assertUncommon(password);
  const now = ctx.config.now();
  const [claimed] = await ctx.db
    .update(staffInvitations)
    .set({ usedAt: now })
    .where(
      and(
        eq(staffInvitations.tokenHash, sha256(token)),
        eq(staffInvitations.tenantId, tenantId),
        isNull(staffInvitations.usedAt),
        gt(staffInvitations.expiresAt, now),
      ),
    )
    .returning({ staffUserId: staffInvitations.staffUserId });
  if (!claimed) throw new HttpError(400, staffMessages.invitationInvalid);
  const passwordHash = await ctx.hasher.hash(password);
  const [user] = await ctx.db
    .update(staffUsers)
    .set({ passwordHash })
    .where(and(eq(staffUsers.id, claimed.staffUserId), isNull(staffUsers.disabledAt)))
    .returning({ email: staffUsers.email });
  if (!user) throw new HttpError(400, staffMessages.invitationInvalid);
  await audit(
    ctx,
    { tenantId, staffUserId: claimed.staffUserId, name: user.email },
    'staff.joined',
  );
  return staffMessages.joined;
}

/**
 * The password step: the applicant lockout (counted before the check), then a session that opens
 * only the second factor. Unknown, not yet joined and disabled accounts answer like a wrong password.
 */
export async function staffLogin(
  ctx: ServiceContext,
  tenantId: string,
  rawEmail: string,
  password: string,
): Promise<{ sessionId: string; me: StaffMe }> {
  const email = normalizeEmail(rawEmail);
  const gate = await reserveLoginAttempt(ctx, tenantId, passwordName(email), ctx.config.now());
  if (!gate.open) throw gate.refusal;
  const [user] = await ctx.db
    .select()
    .from(staffUsers)
    .where(and(eq(staffUsers.tenantId, tenantId), eq(staffUsers.email, email)));
  const ok =
    user?.passwordHash && !user.disabledAt
      ? await ctx.hasher.verify(user.passwordHash, password)
      : await ctx.hasher.verifyNothing(password);
  if (!user || !ok) throw new HttpError(400, staffMessages.loginFailed);
  await clearLoginFailures(ctx, tenantId, passwordName(email));
  const sessionId = await createStaffSession(ctx, tenantId, user.id);
  return {
    sessionId,
    me: { email, role: user.role, stage: user.totpEnrolledAt ? 'verify' : 'enrol' },
  };
}

const secretAad = (session: Pick<StaffSession, 'tenantId' | 'staffUserId'>) =>
  `${session.tenantId}:${session.staffUserId}`;

/** Starts (or restarts) enrolment: a new key, kept sealed until a code from it is entered. */
export async function startEnrolment(ctx: ServiceContext, session: StaffSession) {
  if (session.enrolled) throw new HttpError(409, staffMessages.alreadyEnrolled);
  const secret = newTotpSecret();
  await ctx.db
    .update(staffUsers)
    .set({ totpSecret: seal(ctx.config, secret, secretAad(session)) })
    .where(and(eq(staffUsers.id, session.staffUserId), isNull(staffUsers.totpEnrolledAt)));
  return enrolmentOf(secret, ctx.institutionOf(session.tenantId).partner_name, session.email);
}

/** Counts a code attempt against the lockout before it is checked (as passwords are). */
async function gateCode(ctx: ServiceContext, session: StaffSession) {
  const gate = await reserveLoginAttempt(
    ctx,
    session.tenantId,
    codeName(session.staffUserId),
    ctx.config.now(),
  );
  if (!gate.open) throw gate.refusal;
}

const codeFailed = () => new HttpError(400, staffMessages.codeFailed);

async function sealedSecret(ctx: ServiceContext, session: StaffSession) {
  const [row] = await ctx.db
    .select({ sealed: staffUsers.totpSecret })
    .from(staffUsers)
    .where(eq(staffUsers.id, session.staffUserId));
  if (!row?.sealed) throw codeFailed();
  return row.sealed;
}

/** Finishes enrolment with a first right code: the key goes live and recovery codes are issued. */
export async function finishEnrolment(
  ctx: ServiceContext,
  session: StaffSession,
  code: string,
): Promise<string[]> {
  if (session.enrolled) throw new HttpError(409, staffMessages.alreadyEnrolled);
  await gateCode(ctx, session);
  const sealed = await sealedSecret(ctx, session);
  const now = ctx.config.now();
  const step = isTotpCode(code)
    ? matchingStep(open(ctx.config, sealed, secretAad(session)), code, now)
    : null;
  if (step === null) throw codeFailed();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const enrolled = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(staffUsers)
      .set({ totpEnrolledAt: now, totpLastStep: step })
      .where(
        and(
          eq(staffUsers.id, session.staffUserId),
          isNull(staffUsers.totpEnrolledAt),
          eq(staffUsers.totpSecret, sealed),
        ),
      )
      .returning({ id: staffUsers.id });
    if (!row) return false;
    await tx.insert(staffRecoveryCodes).values(
      codes.map((recovery) => ({
        tenantId: session.tenantId,
        staffUserId: session.staffUserId,
        codeHash: sha256(normalizeRecoveryCode(recovery)),
      })),
    );
    return true;
  });
  if (!enrolled) throw codeFailed();
  await clearLoginFailures(ctx, session.tenantId, codeName(session.staffUserId));
  await verifyStaffSession(ctx, session.sessionHash);
  await audit(ctx, actorOf(session), 'staff.enrolled');
  return codes;
}

/**
 * The second factor at sign-in: a TOTP code whose step is newer than the last one used (so a code,
 * once used, is refused: the claim is one conditional UPDATE), or an unused recovery code.
 */
export async function verifySecondFactor(
  ctx: ServiceContext,
  session: StaffSession,
  code: string,
): Promise<void> {
  if (!session.enrolled) throw codeFailed();
  await gateCode(ctx, session);
  const now = ctx.config.now();
  let accepted: boolean;
  if (isTotpCode(code)) {
    const sealed = await sealedSecret(ctx, session);
    const step = matchingStep(open(ctx.config, sealed, secretAad(session)), code, now);
    if (step === null) throw codeFailed();
    const [row] = await ctx.db
      .update(staffUsers)
      .set({ totpLastStep: step })
      .where(
        and(
          eq(staffUsers.id, session.staffUserId),
          or(isNull(staffUsers.totpLastStep), lt(staffUsers.totpLastStep, step)),
        ),
      )
      .returning({ id: staffUsers.id });
    accepted = row !== undefined;
  } else {
    const [row] = await ctx.db
      .update(staffRecoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(staffRecoveryCodes.tenantId, session.tenantId),
          eq(staffRecoveryCodes.staffUserId, session.staffUserId),
          eq(staffRecoveryCodes.codeHash, sha256(normalizeRecoveryCode(code))),
          isNull(staffRecoveryCodes.usedAt),
        ),
      )
      .returning({ codeHash: staffRecoveryCodes.codeHash });
    accepted = row !== undefined;
    if (accepted) await audit(ctx, actorOf(session), 'staff.recovery_code_used');
  }
  if (!accepted) throw codeFailed();
  await clearLoginFailures(ctx, session.tenantId, codeName(session.staffUserId));
  await verifyStaffSession(ctx, session.sessionHash);
  await audit(ctx, actorOf(session), 'staff.signed_in');
}

export function actorOf(session: StaffSession): Actor {
  return { tenantId: session.tenantId, staffUserId: session.staffUserId, name: session.email };
}

export async function listStaff(ctx: ServiceContext, tenantId: string) {
  const rows = await ctx.db
    .select()
    .from(staffUsers)
    .where(eq(staffUsers.tenantId, tenantId))
    .orderBy(asc(staffUsers.email));
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    state: row.disabledAt
      ? ('disabled' as const)
      : row.passwordHash
        ? ('active' as const)
        : ('invited' as const),
    created_at: row.createdAt.toISOString(),
  }));
}

/** Disables an account and ends its sessions; an admin cannot disable their own account. */
export async function disableStaff(
  ctx: ServiceContext,
  session: StaffSession,
  staffUserId: string,
): Promise<string> {
  if (staffUserId === session.staffUserId) throw new HttpError(400, staffMessages.forbidden);
  const [row] = await ctx.db
    .update(staffUsers)
    .set({ disabledAt: ctx.config.now() })
    .where(and(eq(staffUsers.tenantId, session.tenantId), eq(staffUsers.id, staffUserId)))
    .returning({ email: staffUsers.email });
  if (!row) throw new HttpError(404, staffMessages.noSuchStaff);
  await endAllStaffSessions(ctx, session.tenantId, staffUserId);
  await audit(ctx, actorOf(session), 'staff.disabled', null, row.email);
  return staffMessages.disabled;
}
