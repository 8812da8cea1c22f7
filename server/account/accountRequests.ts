/**
 * The account requests whose answer must not tell whether an address has an account (REQ-ID-4,
 * D17, D53, D193): a sign-up, a code asked for again, a reset link asked for. The answer runs the
 * same statements for every address, known or not: the password's hash (sign-up), the address's
 * hourly limit (sign-up, reset), then one job queued with the address and a secret made for the
 * request (a code or a link's token), sealed. Nothing before the answer reads the account. The
 * job, run by the worker after the answer, looks the address up and does what the account's state calls for: it creates the account or tells its owner, issues a code or
 * a link, or does nothing. Its mail is queued in its own transaction (D138).
 *
 * A job may run twice (a worker stopped between its commit and its end): the request's secret
 * names what its first run did, so a second run finds it and does nothing more.
 */
import { and, eq, gt } from 'drizzle-orm';
import { serverMessages, type SignupBody } from '../../contract';
import { confirmationCodes, resetTokens, users } from '../db/schema';
import type { ServiceContext } from '../http/context';
import { takeFromLimit } from './limits';
import type { Job, JobKind, JobQueue } from '../jobs/queue';
import { randomCode, randomToken, sha256 } from '../secrets';
import { open, seal } from '../crypto/secretBox';
import { underAccountLock, type Transaction } from './accountLock';
import { assertUncommon, CODE_VALIDITY_MS, normalizeEmail, RESET_VALIDITY_MS } from './accounts';

export const ACCOUNT_REQUEST_JOB = 'account-request';

type RequestKind = 'signup' | 'resend' | 'reset';

/** What a request hands its job, sealed: it names the address. */
interface Sealed {
  readonly email: string;
  /** The code (sign-up, resend) or the link's token (reset) this request issues, if any. */
  readonly secret: string;
  /** Sign-up only: the new password's hash, and whether the address's hourly codes allow a mail. */
  readonly passwordHash?: string;
  readonly mayMail?: boolean;
}

interface AccountRequestPayload extends Record<string, unknown> {
  readonly tenantId: string;
  readonly request: RequestKind;
  /** When the request was answered: its code or link lives from then. */
  readonly requestedAt: string;
  /** `Sealed`, with the mail key's sibling (`account-request:v1`); gone once the job is done. */
  readonly sealed?: string;
  readonly doneAt?: string;
  readonly givenUpAt?: string;
}

const PURPOSE = 'account-request:v1';
const sealedWith = (payload: Pick<AccountRequestPayload, 'tenantId' | 'request' | 'requestedAt'>) =>
  `${payload.tenantId}:${payload.request}:${payload.requestedAt}`;

/** Queues the request's job, sealed: the same statement for every address (D193). */
async function queueRequest(
  ctx: Pick<ServiceContext, 'config' | 'jobs'>,
  tenantId: string,
  request: RequestKind,
  content: Sealed,
): Promise<void> {
  const requestedAt = ctx.config.now().toISOString();
  const sealed = seal(
    ctx.config,
    JSON.stringify(content),
    sealedWith({ tenantId, request, requestedAt }),
    PURPOSE,
  );
  await ctx.jobs.enqueue(ACCOUNT_REQUEST_JOB, { tenantId, request, requestedAt, sealed });
}

/**
 * Sign-up (SPEC 5.2). The same answer, and the same statements before it, whatever the address's
 * state (REQ-ID-4, D17): the password is hashed first, every sign-up counts towards the address's
 * 5 codes an hour, and the account is settled by the job (`settleSignup`).
 */
export async function signup(
  ctx: ServiceContext,
  tenantId: string,
  body: SignupBody,
): Promise<string> {
  assertUncommon(body.password);
  const email = normalizeEmail(body.username);
  const passwordHash = await ctx.hasher.hash(body.password);
  const mayMail = await takeFromLimit(ctx, tenantId, email, 'code');
  await queueRequest(ctx, tenantId, 'signup', {
    email,
    secret: randomCode(),
    passwordHash,
    mayMail,
  });
  return serverMessages.signedUp;
}

/** A code asked for again: only an unconfirmed account gets one, within its 5 codes an hour. */
export async function resendCode(
  ctx: ServiceContext,
  tenantId: string,
  username: string,
): Promise<string> {
  await queueRequest(ctx, tenantId, 'resend', {
    email: normalizeEmail(username),
    secret: randomCode(),
  });
  return serverMessages.resent;
}

/** A reset link asked for (REQ-ID-3): 5 requests an hour per address, known or not. */
export async function forgotPassword(
  ctx: ServiceContext,
  tenantId: string,
  username: string,
): Promise<string> {
  const email = normalizeEmail(username);
  if (await takeFromLimit(ctx, tenantId, email, 'resetRequest'))
    await queueRequest(ctx, tenantId, 'reset', { email, secret: randomToken(32) });
  return serverMessages.forgotSent;
}

/** What the job needs: the services' database, clock and mail, and the queue it runs in. */
export interface AccountRequestContext extends Pick<
  ServiceContext,
  'db' | 'config' | 'mail' | 'originOf'
> {
  readonly queue: Pick<JobQueue, 'record'>;
}

/** The address's account, if it has one: its id and whether it is confirmed. */
async function accountOf(db: Pick<Transaction, 'select'>, tenantId: string, email: string) {
  const [account] = await db
    .select({ id: users.id, confirmedAt: users.confirmedAt })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.email, email)));
  return account;
}

/** A code's row for an account, issued at `at` (it replaces the account's previous code). */
function codeRow(tenantId: string, userId: string, code: string, at: Date) {
  return {
    userId,
    tenantId,
    codeHash: sha256(code),
    wrongGuesses: 0,
    expiresAt: new Date(at.getTime() + CODE_VALIDITY_MS),
    createdAt: at,
  };
}

/** Stores a code and queues its mail (one per code: the account and the code's hash). */
async function issueCode(
  ctx: AccountRequestContext,
  tx: Transaction,
  row: ReturnType<typeof codeRow>,
  email: string,
  code: string,
  mayMail = true,
): Promise<void> {
  await tx
    .insert(confirmationCodes)
    .values(row)
    .onConflictDoUpdate({ target: confirmationCodes.userId, set: row });
  if (!mayMail) return;
  await ctx.mail.send(
    row.tenantId,
    {
      template: 'confirmationCode',
      to: email,
      args: [code],
      event: `${row.userId}:${row.codeHash}`,
      expiresAt: row.expiresAt,
    },
    { db: tx },
  );
}

/**
 * The account part of a sign-up, under the address's lock so parallel sign-ups see each other: one
 * account, one code. A new or lapsed account gets the password and a code; an unconfirmed one whose
 * code still works keeps its first password (D68) and its owner is told, as is a confirmed one's.
 */
async function settleSignup(
  ctx: AccountRequestContext,
  tenantId: string,
  { email, secret: code, passwordHash, mayMail }: Sealed,
  at: Date,
): Promise<void> {
  const codeHash = sha256(code);
  await underAccountLock(ctx, tenantId, 'signup', email, async (tx) => {
    const existing = await accountOf(tx, tenantId, email);
    const [liveCode] = existing
      ? await tx
          .select({ codeHash: confirmationCodes.codeHash })
          .from(confirmationCodes)
          .where(
            and(
              eq(confirmationCodes.tenantId, tenantId),
              eq(confirmationCodes.userId, existing.id),
              gt(confirmationCodes.expiresAt, at),
            ),
          )
      : [];
    // This request's own code: its job ran before.
    if (liveCode?.codeHash === codeHash) return;
    if (existing && (existing.confirmedAt || liveCode)) {
      // The notice's event is the request's code, which no account was given.
      if (mayMail)
        await ctx.mail.send(
          tenantId,
          {
            template: existing.confirmedAt ? 'attemptedSignup' : 'pendingSignup',
            to: email,
            args: [],
            event: codeHash,
          },
          { db: tx },
        );
      return;
    }
    const hash = passwordHash as string;
    let userId: string;
    if (existing) {
      await tx.update(users).set({ passwordHash: hash }).where(eq(users.id, existing.id));
      userId = existing.id;
    } else {
      const [created] = await tx
        .insert(users)
        .values({ tenantId, email, passwordHash: hash, createdAt: at })
        .returning({ id: users.id });
      userId = (created as { id: string }).id;
    }
    await issueCode(ctx, tx, codeRow(tenantId, userId, code, at), email, code, mayMail);
  });
}

/** A code asked for again: an unconfirmed account gets the request's code, within its limit. */
async function codeAgain(
  ctx: AccountRequestContext,
  tenantId: string,
  { email, secret: code }: Sealed,
  at: Date,
): Promise<void> {
  const user = await accountOf(ctx.db, tenantId, email);
  if (!user || user.confirmedAt) return;
  const row = codeRow(tenantId, user.id, code, at);
  const [current] = await ctx.db
    .select({ codeHash: confirmationCodes.codeHash })
    .from(confirmationCodes)
    .where(eq(confirmationCodes.userId, user.id));
  if (current?.codeHash === row.codeHash) return;
  if (!(await takeFromLimit(ctx, tenantId, email, 'code'))) return;
  await ctx.db.transaction((tx) => issueCode(ctx, tx, row, email, code));
}

/** A reset link for a confirmed account; a newer link supersedes every older one. */
async function resetLink(
  ctx: AccountRequestContext,
  tenantId: string,
  { email, secret: token }: Sealed,
  at: Date,
): Promise<void> {
  const user = await accountOf(ctx.db, tenantId, email);
  if (!user?.confirmedAt) return;
  const hash = sha256(token);
  const expiresAt = new Date(at.getTime() + RESET_VALIDITY_MS);
  await ctx.db.transaction(async (tx) => {
    const [issued] = await tx
      .select({ tokenHash: resetTokens.tokenHash })
      .from(resetTokens)
      .where(and(eq(resetTokens.tenantId, tenantId), eq(resetTokens.tokenHash, hash)));
    if (issued) return;
    await tx
      .delete(resetTokens)
      .where(and(eq(resetTokens.tenantId, tenantId), eq(resetTokens.userId, user.id)));
    await tx
      .insert(resetTokens)
      .values({ tokenHash: hash, tenantId, userId: user.id, expiresAt, createdAt: at });
    // Built from the tenant's own origin, never from the Host header (D196).
    const link = `${ctx.originOf(tenantId)}/reset?username=${encodeURIComponent(email)}&id=${encodeURIComponent(token)}`;
    await ctx.mail.send(
      tenantId,
      { template: 'resetLink', to: email, args: [link], event: hash, expiresAt },
      { db: tx },
    );
  });
}

const handlers = { signup: settleSignup, resend: codeAgain, reset: resetLink } as const;

/** What stays of a request once done or given up: its kind and times, no address. */
function spent(
  payload: AccountRequestPayload,
  field: 'doneAt' | 'givenUpAt',
  at: Date,
): AccountRequestPayload {
  const { sealed: _sealed, ...kept } = payload;
  return { ...kept, [field]: at.toISOString() };
}

/**
 * The job that acts on one account request (registered by server/jobKinds.ts). A failed try waits
 * as a mail's does (D138), and the request is given up as late as its mail would be.
 */
export function accountRequestJob(ctx: AccountRequestContext): JobKind<AccountRequestPayload> {
  const { config } = ctx;
  return {
    maxAttempts: 100_000,
    async run(job: Job<AccountRequestPayload>) {
      const { payload } = job;
      if (!payload.sealed) return;
      const content = JSON.parse(
        open(config, payload.sealed, sealedWith(payload), PURPOSE),
      ) as Sealed;
      await handlers[payload.request](
        ctx,
        payload.tenantId,
        content,
        new Date(payload.requestedAt),
      );
      await ctx.queue.record(job, spent(payload, 'doneAt', config.now()));
    },
    retryDelayMs(job) {
      const now = config.now().getTime();
      const giveUpAt = Date.parse(job.payload.requestedAt) + config.mail.giveUpMs;
      if (now >= giveUpAt) return null;
      const wait = Math.min(config.mail.retryMs * 2 ** (job.attempt - 1), config.mail.retryMaxMs);
      return Math.min(wait, giveUpAt - now);
    },
    async onGiveUp(job) {
      await ctx.queue.record(job, spent(job.payload, 'givenUpAt', config.now()));
    },
  };
}
