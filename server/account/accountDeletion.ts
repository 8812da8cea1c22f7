/**
 * "Delete my account" (D152, GDPR art. 17): before submission the account and everything it holds
 * go at once, in one transaction for the rows; its stored objects are removed after the commit, each
 * noted in `object_deletions` by that transaction so a failed removal is tried again by the retention
 * sweep. After submission the institution may have to keep the application: the request is filed and
 * an admin completes it from the console. The audit keeps the fact and a keyed pseudonym (D151).
 */
import { and, desc, eq, isNotNull, max, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { serverMessages, type DeleteAccountResponse } from '../../contract';
import {
  accountEvents,
  applicationPdfs,
  applications,
  deletionRequests,
  documents,
  jobs,
  loginFailureStreaks,
  loginThrottle,
  objectDeletions,
  staffAudit,
  staffListing,
  users,
} from '../db/schema';
import { HttpError } from '../errors';
import { addressHash, logPseudonymKey } from '../security/events';
import { errorFields } from '../security/logFields';
import { audit, type Actor } from '../db/auditTrail';
import type { ObjectStorage } from '../storage/storage';
import { underAccountLock, type Transaction } from './accountLock';
import type { ServiceContext } from '../http/context';
import type { SessionUser } from './sessions';

export interface DeletionContext extends ServiceContext {
  readonly storage: ObjectStorage;
}

/** The account a deletion removes. */
export interface Account {
  readonly tenantId: string;
  readonly userId: string;
  readonly email: string;
}

/** Who deleted an account, as the audit names them: the applicant, an admin, or the retention sweep. */
export type Deleter = Actor;

/** The audit's only trace of a deleted account: a keyed pseudonym of its address (D151). */
export function deletedAccountDetail(ctx: Pick<ServiceContext, 'config'>, email: string): string {
  return `address:${addressHash(logPseudonymKey(ctx.config), email)}`;
}

/**
 * Deletes the account's rows in `tx` (the rest go by the users row's cascades: application,
 * documents, PDFs, sessions, logins, statuses, service links, the staff list row) and notes its
 * stored objects; queues the confirmation mail and writes the audit row in the same transaction.
 * Returns the object keys to remove once it commits, or null when the account was already gone.
 */
export async function deleteAccountRows(
  tx: Transaction,
  ctx: DeletionContext,
  account: Account,
  by: Deleter,
  { filedRequest = false }: { filedRequest?: boolean } = {},
): Promise<string[] | null> {
  const { tenantId, userId, email } = account;
  const now = ctx.config.now();
  const owned = (table: typeof documents | typeof applicationPdfs) =>
    and(eq(table.tenantId, tenantId), eq(table.userId, userId));
  const files = await tx
    .select({ fileKey: documents.fileKey, pdfKey: documents.pdfKey })
    .from(documents)
    .where(owned(documents));
  const pdfs = await tx
    .select({ pdfKey: applicationPdfs.pdfKey })
    .from(applicationPdfs)
    .where(owned(applicationPdfs));
  const [deleted] = await tx
    .delete(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .returning({ id: users.id });
  if (!deleted) return null;
  const keys = [
    ...files.flatMap((row) => [row.fileKey, row.pdfKey]),
    ...pdfs.map((row) => row.pdfKey),
  ].filter((key): key is string => Boolean(key));
  if (keys.length > 0)
    await tx
      .insert(objectDeletions)
      .values(keys.map((objectKey) => ({ tenantId, objectKey, createdAt: now })))
      .onConflictDoNothing();
  // Work queued for the account has nothing left to work on (its payload names the owner).
  await tx
    .delete(jobs)
    .where(and(eq(jobs.owner, `${tenantId}/${userId}`), eq(jobs.status, 'queued')));
  // What is kept per typed address rather than per account: the address's limits and lockouts.
  for (const table of [accountEvents, loginThrottle, loginFailureStreaks])
    await tx.delete(table).where(and(eq(table.tenantId, tenantId), eq(table.username, email)));
  await ctx.mail.send(
    tenantId,
    { template: 'accountDeleted', to: email, args: [], event: userId },
    { db: tx },
  );
  await audit(
    { db: tx, config: ctx.config },
    by,
    'account.deleted',
    // A completed request names the application, as its filing did, so the console lists it (D164).
    filedRequest ? userId : null,
    deletedAccountDetail(ctx, email),
  );
  return keys;
}

/**
 * Removes stored objects noted for deletion, forgetting each once it is gone. A failure is logged
 * and left noted: the retention sweep tries it again.
 */
export async function removeNotedObjects(
  ctx: DeletionContext,
  tenantId: string,
  keys: readonly string[],
): Promise<number> {
  let removed = 0;
  for (const key of keys) {
    try {
      await ctx.storage.delete(key);
      await ctx.db
        .delete(objectDeletions)
        .where(and(eq(objectDeletions.tenantId, tenantId), eq(objectDeletions.objectKey, key)));
      removed++;
    } catch (error) {
      ctx.log.warn({ tenant: tenantId, err: errorFields(error) }, 'stored object not deleted yet');
    }
  }
  return removed;
}

const applicantActor = (user: Account): Actor => ({
  tenantId: user.tenantId,
  staffUserId: null,
  name: 'applicant',
});

/**
 * DELETE /api/account: the password typed again, then the account goes (before submission) or its
 * deletion is requested (after). Parallel calls: one deletes, the others find no account (401).
 */
export async function deleteOwnAccount(
  ctx: DeletionContext,
  user: SessionUser,
  password: string,
): Promise<DeleteAccountResponse> {
  const { tenantId, userId } = user;
  const [account] = await ctx.db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
  if (!account) throw new HttpError(401, serverMessages.sessionRequired);
  if (!(await ctx.hasher.verify(account.passwordHash, password)))
    throw new HttpError(400, serverMessages.deletionPasswordWrong);
  const owner = { tenantId, userId, email: account.email };
  const done = await underAccountLock(ctx, tenantId, 'delete', userId, async (tx) => {
    const [application] = await tx
      .select({ submittedAt: applications.submittedAt })
      .from(applications)
      .where(and(eq(applications.tenantId, tenantId), eq(applications.userId, userId)))
      .for('update');
    if (application?.submittedAt) {
      await fileDeletionRequest(tx, ctx, owner);
      return { outcome: 'requested' as const, keys: [] };
    }
    const keys = await deleteAccountRows(tx, ctx, owner, applicantActor(owner));
    if (!keys) throw new HttpError(401, serverMessages.sessionRequired);
    return { outcome: 'deleted' as const, keys };
  });
  if (done.outcome === 'requested')
    return { outcome: 'requested', message: serverMessages.deletionRequested };
  await removeNotedObjects(ctx, tenantId, done.keys);
  return { outcome: 'deleted', message: serverMessages.accountDeleted };
}

/** Files the request once; a repeated request changes nothing and mails nothing. */
async function fileDeletionRequest(tx: Transaction, ctx: DeletionContext, owner: Account) {
  const [filed] = await tx
    .insert(deletionRequests)
    .values({ tenantId: owner.tenantId, userId: owner.userId, requestedAt: ctx.config.now() })
    .onConflictDoNothing()
    .returning({ userId: deletionRequests.userId });
  if (!filed) return;
  await ctx.mail.send(
    owner.tenantId,
    { template: 'deletionRequested', to: owner.email, args: [], event: owner.userId },
    { db: tx },
  );
  await audit(
    { db: tx, config: ctx.config },
    applicantActor(owner),
    'account.deletion_requested',
    owner.userId,
  );
}

/** The requests of a tenant still waiting for an admin, newest first (the admin's view). */
export async function deletionRequestList(ctx: Pick<ServiceContext, 'db'>, tenantId: string) {
  return ctx.db
    .select({
      userId: deletionRequests.userId,
      requestedAt: deletionRequests.requestedAt,
      email: users.email,
      name: staffListing.name,
      submittedAt: applications.submittedAt,
    })
    .from(deletionRequests)
    .innerJoin(users, eq(users.id, deletionRequests.userId))
    .leftJoin(
      applications,
      and(eq(applications.tenantId, tenantId), eq(applications.userId, deletionRequests.userId)),
    )
    .leftJoin(
      staffListing,
      and(eq(staffListing.tenantId, tenantId), eq(staffListing.userId, deletionRequests.userId)),
    )
    .where(eq(deletionRequests.tenantId, tenantId))
    .orderBy(desc(deletionRequests.requestedAt), deletionRequests.userId);
}

/**
 * Requests completed, newest first, from the audit: the account is gone, so only the application's
 * id (its reference), when it was asked for, when and by whom it was completed are left (D152).
 * A statement to await (or explain): one range of the audit by action.
 */
export function completedDeletionRequests(
  ctx: Pick<ServiceContext, 'db'>,
  tenantId: string,
  limit: number,
) {
  const filed = alias(staffAudit, 'filed');
  return ctx.db
    .select({
      userId: sql<string>`${staffAudit.applicantId}`,
      completedAt: staffAudit.at,
      completedBy: staffAudit.actor,
      requestedAt: sql<Date | null>`(${ctx.db
        .select({ at: max(filed.at) })
        .from(filed)
        .where(
          and(
            eq(filed.tenantId, tenantId),
            eq(filed.applicantId, staffAudit.applicantId),
            eq(filed.action, 'account.deletion_requested'),
          ),
        )})`.mapWith(staffAudit.at),
    })
    .from(staffAudit)
    .where(
      and(
        eq(staffAudit.tenantId, tenantId),
        eq(staffAudit.action, 'account.deleted'),
        isNotNull(staffAudit.applicantId),
      ),
    )
    .orderBy(desc(staffAudit.at), desc(staffAudit.id))
    .limit(limit);
}

/** An admin completes a filed request: the account goes as before submission. False: none filed. */
export async function completeDeletionRequest(
  ctx: DeletionContext,
  admin: Actor,
  userId: string,
): Promise<boolean> {
  const { tenantId } = admin;
  const keys = await underAccountLock(ctx, tenantId, 'delete', userId, async (tx) => {
    const [request] = await tx
      .select({ email: users.email })
      .from(deletionRequests)
      .innerJoin(users, eq(users.id, deletionRequests.userId))
      .where(and(eq(deletionRequests.tenantId, tenantId), eq(deletionRequests.userId, userId)));
    if (!request) return null;
    return deleteAccountRows(tx, ctx, { tenantId, userId, email: request.email }, admin, {
      filedRequest: true,
    });
  });
  if (!keys) return false;
  await removeNotedObjects(ctx, tenantId, keys);
  return true;
}

/** Objects a failed removal left noted (the sweep's retry), oldest first. */
export async function notedObjects(
  ctx: Pick<ServiceContext, 'db'>,
  tenantId: string,
  limit: number,
) {
  const rows = await ctx.db
    .select({ key: objectDeletions.objectKey })
    .from(objectDeletions)
    .where(eq(objectDeletions.tenantId, tenantId))
    .orderBy(objectDeletions.createdAt)
    .limit(limit);
  return rows.map((row) => row.key);
}
