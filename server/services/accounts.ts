/**
 * Accounts (SPEC 5.2, 7.2 /public/*), with the defaults of the hosted identity service the spec was
 * written against (SECURITY.md REQ-ID-1 to REQ-ID-5). Answers never reveal whether an address has an
 * account: unknown and known addresses get the same message, and unknown logins spend the same time.
 */
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import {
  NOT_CONFIRMED_CODE,
  accountMessages,
  serverMessages,
  type ConfirmBody,
  type LoginBody,
  type ResetBody,
  type SignupBody,
} from '../../contract';
import { institutionConfig } from '../../definitions';
import {
  confirmationCodes,
  loginFailureStreaks,
  loginThrottle,
  resetTokens,
  users,
} from '../db/schema';
import { HttpError } from '../errors';
import { mails } from '../mail/templates';
import type { MailMessage } from '../mail/mailer';
import { isCommonPassword } from '../passwords';
import { randomCode, randomToken, sameHash, sha256 } from '../secrets';
import type { ServiceContext } from './context';
import { takeFromLimit } from './limits';
import { createSession, endAllSessions } from './sessions';
import { errorFields } from '../security/logFields';

export const CODE_VALIDITY_MS = 24 * 60 * 60 * 1000;
export const CODE_MAX_WRONG_GUESSES = 10;
export const RESET_VALIDITY_MS = 60 * 60 * 1000;
/** REQ-ID-2: the lockout starts after the 5th failure, 2^(n−5) seconds, at most 15 minutes. */
export const LOCKOUT_AFTER = 5;
export const LOCKOUT_CAP_S = 900;
/** The failure counter resets after 15 minutes without attempts. */
export const LOCKOUT_RESET_MS = 15 * 60 * 1000;
/** NIST SP 800-63B 5.2.2: at most 100 consecutive failures, then a hard stop until a password reset. */
export const HARD_STOP_AFTER = 100;

/** Addresses are compared case-insensitively. */
export function normalizeEmail(username: string): string {
  return username.trim().toLowerCase();
}

function assertUncommon(password: string): void {
  if (isCommonPassword(password)) throw new HttpError(400, accountMessages.passwordCommon);
}

/** Sends a message without making the caller wait (same timing whether or not mail goes out). */
function sendLater(ctx: ServiceContext, message: MailMessage): void {
  ctx.mailer
    .send(message)
    .catch((error: unknown) =>
      ctx.log.error({ err: errorFields(error) }, 'mail could not be sent'),
    );
}

async function findUser(ctx: ServiceContext, tenantId: string, email: string) {
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.email, email)));
  return user ?? null;
}

async function issueCode(
  ctx: ServiceContext,
  tenantId: string,
  userId: string,
  email: string,
): Promise<void> {
  const code = randomCode();
  const now = ctx.config.now();
  const row = {
    userId,
    tenantId,
    codeHash: sha256(code),
    wrongGuesses: 0,
    expiresAt: new Date(now.getTime() + CODE_VALIDITY_MS),
    createdAt: now,
  };
  await ctx.db
    .insert(confirmationCodes)
    .values(row)
    .onConflictDoUpdate({ target: confirmationCodes.userId, set: row });
  sendLater(ctx, mails.confirmationCode(email, code, institutionConfig));
}

export async function signup(
  ctx: ServiceContext,
  tenantId: string,
  body: SignupBody,
): Promise<string> {
  assertUncommon(body.password);
  const email = normalizeEmail(body.username);
  const passwordHash = await ctx.hasher.hash(body.password);
  const existing = await findUser(ctx, tenantId, email);
  if (existing?.confirmedAt) {
    // Alias mode: the same answer as for a new address; the owner hears about the attempt. The same
    // statements as a new sign-up run (both no-ops here), so the time taken reveals nothing (D53).
    await ctx.db
      .insert(users)
      .values({ tenantId, email, passwordHash, createdAt: ctx.config.now() })
      .onConflictDoNothing()
      .returning({ id: users.id });
    const allowed = await takeFromLimit(ctx, tenantId, email, 'code');
    await ctx.db
      .update(confirmationCodes)
      .set({ wrongGuesses: 0 })
      .where(
        and(eq(confirmationCodes.tenantId, tenantId), eq(confirmationCodes.userId, existing.id)),
      );
    if (allowed) sendLater(ctx, mails.attemptedSignup(email, institutionConfig));
    return serverMessages.signedUp;
  }
  let userId: string;
  if (existing) {
    // An unconfirmed account: whoever confirms the code owns it, with the latest password.
    await ctx.db.update(users).set({ passwordHash }).where(eq(users.id, existing.id));
    userId = existing.id;
  } else {
    const [created] = await ctx.db
      .insert(users)
      .values({ tenantId, email, passwordHash, createdAt: ctx.config.now() })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!created) return serverMessages.signedUp; // a concurrent sign-up won the race
    userId = created.id;
  }
  if (await takeFromLimit(ctx, tenantId, email, 'code'))
    await issueCode(ctx, tenantId, userId, email);
  return serverMessages.signedUp;
}

export async function confirm(
  ctx: ServiceContext,
  tenantId: string,
  body: ConfirmBody,
): Promise<string> {
  const email = normalizeEmail(body.username);
  const fail = new HttpError(400, serverMessages.confirmFailed);
  if (!(await takeFromLimit(ctx, tenantId, email, 'confirm'))) throw fail;
  const user = await findUser(ctx, tenantId, email);
  if (!user || user.confirmedAt) throw fail;
  const [code] = await ctx.db
    .select()
    .from(confirmationCodes)
    .where(eq(confirmationCodes.userId, user.id));
  if (!code || code.expiresAt <= ctx.config.now() || code.wrongGuesses >= CODE_MAX_WRONG_GUESSES)
    throw fail;
  if (!sameHash(code.codeHash, sha256(body.code))) {
    await ctx.db
      .update(confirmationCodes)
      .set({ wrongGuesses: code.wrongGuesses + 1 })
      .where(eq(confirmationCodes.userId, user.id));
    throw fail;
  }
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ confirmedAt: ctx.config.now() }).where(eq(users.id, user.id));
    await tx.delete(confirmationCodes).where(eq(confirmationCodes.userId, user.id));
  });
  return serverMessages.confirmed;
}

export async function resendCode(
  ctx: ServiceContext,
  tenantId: string,
  username: string,
): Promise<string> {
  const email = normalizeEmail(username);
  const user = await findUser(ctx, tenantId, email);
  if (user && !user.confirmedAt && (await takeFromLimit(ctx, tenantId, email, 'code'))) {
    await issueCode(ctx, tenantId, user.id, email);
  }
  return serverMessages.resent;
}

async function clearFailureStreak(ctx: ServiceContext, tenantId: string, email: string) {
  await ctx.db
    .delete(loginFailureStreaks)
    .where(
      and(eq(loginFailureStreaks.tenantId, tenantId), eq(loginFailureStreaks.username, email)),
    );
}

export interface LoginResult {
  readonly sessionId: string;
  readonly userId: string;
  readonly email: string;
}

export async function login(
  ctx: ServiceContext,
  tenantId: string,
  body: LoginBody,
): Promise<LoginResult> {
  const email = normalizeEmail(body.username);
  const now = ctx.config.now();
  const [throttle] = await ctx.db
    .select()
    .from(loginThrottle)
    .where(and(eq(loginThrottle.tenantId, tenantId), eq(loginThrottle.username, email)));
  const [streak] = await ctx.db
    .select({ failures: loginFailureStreaks.failures })
    .from(loginFailureStreaks)
    .where(
      and(eq(loginFailureStreaks.tenantId, tenantId), eq(loginFailureStreaks.username, email)),
    );
  if (streak && streak.failures >= HARD_STOP_AFTER)
    throw new HttpError(429, serverMessages.loginStopped);
  if (throttle?.lockedUntil && throttle.lockedUntil > now) {
    // Attempts during a lockout neither count nor extend it.
    const seconds = Math.ceil((throttle.lockedUntil.getTime() - now.getTime()) / 1000);
    throw new HttpError(429, serverMessages.lockedOut(seconds));
  }
  const user = await findUser(ctx, tenantId, email);
  const passwordOk = user
    ? await ctx.hasher.verify(user.passwordHash, body.password)
    : await ctx.hasher.verifyNothing(body.password);

  if (!user || !passwordOk) {
    const stale = !throttle || now.getTime() - throttle.lastAttemptAt.getTime() >= LOCKOUT_RESET_MS;
    const failures = (stale ? 0 : throttle.failures) + 1;
    const lockedUntil =
      failures >= LOCKOUT_AFTER
        ? new Date(now.getTime() + Math.min(2 ** (failures - LOCKOUT_AFTER), LOCKOUT_CAP_S) * 1000)
        : null;
    await ctx.db
      .insert(loginThrottle)
      .values({ tenantId, username: email, failures, lockedUntil, lastAttemptAt: now })
      .onConflictDoUpdate({
        target: [loginThrottle.tenantId, loginThrottle.username],
        set: { failures, lockedUntil, lastAttemptAt: now },
      });
    await ctx.db
      .insert(loginFailureStreaks)
      .values({ tenantId, username: email, failures: 1, updatedAt: now })
      .onConflictDoUpdate({
        target: [loginFailureStreaks.tenantId, loginFailureStreaks.username],
        set: { failures: sql`${loginFailureStreaks.failures} + 1`, updatedAt: now },
      });
    throw new HttpError(400, serverMessages.loginFailed);
  }

  if (throttle) {
    await ctx.db
      .delete(loginThrottle)
      .where(and(eq(loginThrottle.tenantId, tenantId), eq(loginThrottle.username, email)));
  }
  if (streak) await clearFailureStreak(ctx, tenantId, email);
  if (!user.confirmedAt)
    throw new HttpError(403, serverMessages.notConfirmed, { code: NOT_CONFIRMED_CODE });
  const sessionId = await createSession(ctx, tenantId, user.id);
  return { sessionId, userId: user.id, email };
}

export async function forgotPassword(
  ctx: ServiceContext,
  tenantId: string,
  username: string,
): Promise<string> {
  const email = normalizeEmail(username);
  if (!(await takeFromLimit(ctx, tenantId, email, 'resetRequest')))
    return serverMessages.forgotSent;
  const user = await findUser(ctx, tenantId, email);
  if (!user?.confirmedAt) {
    // The same transaction shape as a real request (it deletes nothing), so timing reveals nothing (D53).
    await ctx.db.transaction(async (tx) => {
      await tx
        .delete(resetTokens)
        .where(and(eq(resetTokens.tenantId, tenantId), eq(resetTokens.tokenHash, sha256(email))));
    });
    return serverMessages.forgotSent;
  }
  const token = randomToken(32);
  const now = ctx.config.now();
  await ctx.db.transaction(async (tx) => {
    // A newer request supersedes every older link.
    await tx
      .delete(resetTokens)
      .where(and(eq(resetTokens.tenantId, tenantId), eq(resetTokens.userId, user.id)));
    await tx.insert(resetTokens).values({
      tokenHash: sha256(token),
      tenantId,
      userId: user.id,
      expiresAt: new Date(now.getTime() + RESET_VALIDITY_MS),
      createdAt: now,
    });
  });
  // Built from the configured origin, never from the Host header.
  const link = `${ctx.config.publicOrigin}/reset?username=${encodeURIComponent(email)}&id=${encodeURIComponent(token)}`;
  sendLater(ctx, mails.resetLink(email, link, institutionConfig));
  return serverMessages.forgotSent;
}

export async function resetPassword(
  ctx: ServiceContext,
  tenantId: string,
  body: ResetBody,
): Promise<string> {
  const fail = new HttpError(400, serverMessages.resetFailed);
  const tokenHash = sha256(body.id);
  const now = ctx.config.now();
  const [token] = await ctx.db
    .select({ userId: resetTokens.userId, email: users.email })
    .from(resetTokens)
    .innerJoin(users, eq(users.id, resetTokens.userId))
    .where(
      and(
        eq(resetTokens.tokenHash, tokenHash),
        eq(resetTokens.tenantId, tenantId),
        isNull(resetTokens.usedAt),
        gt(resetTokens.expiresAt, now),
      ),
    );
  // The username in the link is display-only; the token alone selects the account, and a mismatch fails.
  const email = token?.email ?? normalizeEmail(body.username);
  if (!(await takeFromLimit(ctx, tenantId, email, 'resetTry'))) throw fail;
  if (!token || token.email !== normalizeEmail(body.username)) throw fail;
  assertUncommon(body.password);
  const passwordHash = await ctx.hasher.hash(body.password);
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, token.userId));
    await tx.update(resetTokens).set({ usedAt: now }).where(eq(resetTokens.tokenHash, tokenHash));
    await tx
      .delete(resetTokens)
      .where(
        and(
          eq(resetTokens.tenantId, tenantId),
          eq(resetTokens.userId, token.userId),
          ne(resetTokens.tokenHash, tokenHash),
        ),
      );
    await tx
      .delete(loginThrottle)
      .where(and(eq(loginThrottle.tenantId, tenantId), eq(loginThrottle.username, token.email)));
  });
  await clearFailureStreak(ctx, tenantId, token.email);
  await endAllSessions(ctx, tenantId, token.userId);
  sendLater(ctx, mails.passwordChanged(token.email, institutionConfig));
  return serverMessages.resetDone;
}
