/**
 * Accounts (SPEC 5.2, 7.2 /public/*), with the defaults of the hosted identity service the spec was
 * written against (SECURITY.md REQ-ID-1 to REQ-ID-5). Answers never reveal whether an address has an
 * account: unknown and known addresses get the same message, and unknown logins spend the same time.
 * Sign-up, a code asked again and a reset link asked for do their account's part after the answer,
 * in a job (./accountRequests.ts, D193).
 */
import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import {
  NOT_CONFIRMED_CODE,
  accountMessages,
  serverMessages,
  type ConfirmBody,
  type LoginBody,
  type ResetBody,
} from '../../contract';
import { confirmationCodes, loginThrottle, resetTokens, users } from '../db/schema';
import { HttpError } from '../errors';
import { isCommonPassword } from '../passwords';
import { sameHash, sha256 } from '../secrets';
import type { ServiceContext } from '../http/context';
import { clearFailureStreak, clearLoginFailures, reserveLoginAttempt } from './loginLockout';
import { openSessionAfterLogin } from './sessions';
import { takeFromLimit } from './limits';
import { endAllSessions } from './sessions';

export const CODE_VALIDITY_MS = 24 * 60 * 60 * 1000;
export const CODE_MAX_WRONG_GUESSES = 10;
export const RESET_VALIDITY_MS = 60 * 60 * 1000;
export { HARD_STOP_AFTER, LOCKOUT_AFTER, LOCKOUT_CAP_S, LOCKOUT_RESET_MS } from './loginLockout';
/** Addresses are compared case-insensitively. */
export function normalizeEmail(username: string): string {
  return username.trim().toLowerCase();
}

export function assertUncommon(password: string): void {
  if (isCommonPassword(password)) throw new HttpError(400, accountMessages.passwordCommon);
}

async function findUser(ctx: ServiceContext, tenantId: string, email: string) {
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.email, email)));
  return user ?? null;
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
  const now = ctx.config.now();
  // Every guess is counted before it is compared, in one statement (D67): parallel guesses
  // cannot pass the 10-guess cap together. The right code then deletes the row, so it works once.
  const [code] = await ctx.db
    .update(confirmationCodes)
    .set({ wrongGuesses: sql`${confirmationCodes.wrongGuesses} + 1` })
    .where(
      and(
        eq(confirmationCodes.userId, user.id),
        gt(confirmationCodes.expiresAt, now),
        lt(confirmationCodes.wrongGuesses, CODE_MAX_WRONG_GUESSES),
      ),
    )
    .returning({ codeHash: confirmationCodes.codeHash });
  if (!code || !sameHash(code.codeHash, sha256(body.code))) throw fail;
  const confirmed = await ctx.db.transaction(async (tx) => {
    const [used] = await tx
      .delete(confirmationCodes)
      .where(
        and(eq(confirmationCodes.userId, user.id), eq(confirmationCodes.codeHash, code.codeHash)),
      )
      .returning({ userId: confirmationCodes.userId });
    if (!used) return false;
    await tx.update(users).set({ confirmedAt: now }).where(eq(users.id, user.id));
    return true;
  });
  if (!confirmed) throw fail;
  return serverMessages.confirmed;
}

export interface LoginResult {
  readonly sessionId: string;
  readonly userId: string;
  readonly email: string;
}

/**
 * Two statements when the password is right (D122): the gate, which also reads the account, and one
 * that clears the failures, opens the session and records the login. No connection is held while
 * Argon2 runs.
 */
export async function login(
  ctx: ServiceContext,
  tenantId: string,
  body: LoginBody,
): Promise<LoginResult> {
  const email = normalizeEmail(body.username);
  const gate = await reserveLoginAttempt(ctx, tenantId, email, ctx.config.now(), email);
  if (!gate.open) throw gate.refusal;
  const user = gate.account;
  const passwordOk = user
    ? await ctx.hasher.verify(user.passwordHash, body.password)
    : await ctx.hasher.verifyNothing(body.password);
  if (!user || !passwordOk) throw new HttpError(400, serverMessages.loginFailed);
  if (!user.confirmed) {
    await clearLoginFailures(ctx, tenantId, email);
    throw new HttpError(403, serverMessages.notConfirmed, { code: NOT_CONFIRMED_CODE });
  }
  const sessionId = await openSessionAfterLogin(ctx, tenantId, user.id, email);
  return { sessionId, userId: user.id, email };
}

/**
 * Uses a reset link (REQ-ID-3). The link is claimed (marked used) in one statement before the new
 * password is hashed (D67): of many parallel uses of one link exactly one goes on. The claim
 * is given back only if hashing or storing fails, so the link is not lost to a server error.
 */
export async function resetPassword(
  ctx: ServiceContext,
  tenantId: string,
  body: ResetBody,
): Promise<string> {
  const fail = new HttpError(400, serverMessages.resetFailed);
  const tokenHash = sha256(body.id);
  const now = ctx.config.now();
  const typed = normalizeEmail(body.username);
  const [token] = await ctx.db
    .select({ userId: resetTokens.userId, email: users.email })
    .from(resetTokens)
    .innerJoin(users, eq(users.id, resetTokens.userId))
    .where(and(eq(resetTokens.tokenHash, tokenHash), eq(resetTokens.tenantId, tenantId)));
  // The username in the link is display-only; the token alone selects the account, and a mismatch fails.
  const email = token?.email ?? typed;
  if (!(await takeFromLimit(ctx, tenantId, email, 'resetTry'))) throw fail;
  if (!token || token.email !== typed) throw fail;
  assertUncommon(body.password);
  const live = and(
    eq(resetTokens.tokenHash, tokenHash),
    eq(resetTokens.tenantId, tenantId),
    isNull(resetTokens.usedAt),
    gt(resetTokens.expiresAt, now),
  );
  const [claimed] = await ctx.db
    .update(resetTokens)
    .set({ usedAt: now })
    .where(live)
    .returning({ userId: resetTokens.userId });
  if (!claimed) throw fail;
  try {
    const passwordHash = await ctx.hasher.hash(body.password);
    await ctx.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash }).where(eq(users.id, token.userId));
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
      // One notice per reset: the link that changed the password names it.
      await ctx.mail.send(
        tenantId,
        { template: 'passwordChanged', to: token.email, args: [], event: tokenHash },
        { db: tx },
      );
    });
  } catch (error) {
    await ctx.db
      .update(resetTokens)
      .set({ usedAt: null })
      .where(and(eq(resetTokens.tokenHash, tokenHash), eq(resetTokens.tenantId, tenantId)));
    throw error;
  }
  await clearFailureStreak(ctx, tenantId, token.email);
  await endAllSessions(ctx, tenantId, token.userId);
  return serverMessages.resetDone;
}
