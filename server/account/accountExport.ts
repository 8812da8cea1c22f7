/**
 * "Download my data" (D152, GDPR art. 15, FERPA's right to inspect): one ZIP of everything held
 * about the applicant. `application.json` has the answers with their questions' labels (decrypted:
 * the applicant is entitled to them), the submission and the documents; `account.json` the
 * account's events (sign-up, confirmation, logins, statuses, submission, a deletion request) and the
 * staff's reads of the application from the audit; `documents/` the uploaded files as uploaded;
 * `application.pdf` the PDF copy when one is ready.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { zipSync, strToU8 } from 'fflate';
import { applicationReference } from '../../contract';
import type { Definition } from '../../runtime';
import type { DefinitionAt } from '../tenant';
import { vaultOf } from '../crypto/answerVault';
import {
  applicationPdfs,
  applications,
  deletionRequests,
  documents,
  staffAudit,
  successfulLogins,
  users,
  webStatusEvents,
} from '../db/schema';
import type { AuditAction } from '../../contract/staff';
import type { DeletionContext } from './accountDeletion';
import type { SessionUser } from './sessions';

/** The audit actions that are a staff member reading the application or a file of it. */
const STAFF_READS: readonly AuditAction[] = [
  'application.read',
  'application.pdf',
  'application.document',
  'link.minted',
];

export interface AccountExport {
  readonly fileName: string;
  readonly zip: Uint8Array;
}

/** A name a file system takes, kept recognisable. */
const fileSafe = (name: string) => name.replace(/[^\w.\- ]+/g, '_').slice(0, 120) || 'file';

/**
 * A form's answer columns in order, each key with its question's label (with `codes`, stored codes
 * apart): the staff export's own (answerColumns), passed in by server/app.ts so that the account
 * and the staff console name a question alike without the account importing the console (D204).
 */
export type QuestionColumns = (
  definition: Definition,
  options?: { readonly codes?: boolean },
) => readonly { readonly key: string; readonly label: string }[];

export async function exportAccount(
  ctx: DeletionContext,
  user: SessionUser,
  definitionAt: DefinitionAt,
  answerColumns: QuestionColumns,
): Promise<AccountExport> {
  const mine = <T extends typeof applications | typeof documents | typeof applicationPdfs>(t: T) =>
    and(eq(t.tenantId, user.tenantId), eq(t.userId, user.userId));
  const [account] = await ctx.db
    .select({ createdAt: users.createdAt, confirmedAt: users.confirmedAt })
    .from(users)
    .where(and(eq(users.tenantId, user.tenantId), eq(users.id, user.userId)));
  const [application] = await ctx.db.select().from(applications).where(mine(applications));
  const files = await ctx.db.select().from(documents).where(mine(documents));
  const [pdf] = await ctx.db.select().from(applicationPdfs).where(mine(applicationPdfs));
  const logins = await ctx.db
    .select({ at: successfulLogins.at })
    .from(successfulLogins)
    .where(
      and(eq(successfulLogins.tenantId, user.tenantId), eq(successfulLogins.userId, user.userId)),
    )
    .orderBy(asc(successfulLogins.id));
  const statuses = await ctx.db
    .select({ status: webStatusEvents.webStatus, at: webStatusEvents.at })
    .from(webStatusEvents)
    .where(
      and(eq(webStatusEvents.tenantId, user.tenantId), eq(webStatusEvents.userId, user.userId)),
    )
    .orderBy(asc(webStatusEvents.id));
  const [deletionRequest] = await ctx.db
    .select({ at: deletionRequests.requestedAt })
    .from(deletionRequests)
    .where(
      and(eq(deletionRequests.tenantId, user.tenantId), eq(deletionRequests.userId, user.userId)),
    );
  const reads = await ctx.db
    .select({ at: staffAudit.at, action: staffAudit.action })
    .from(staffAudit)
    .where(
      and(
        eq(staffAudit.tenantId, user.tenantId),
        eq(staffAudit.applicantId, user.userId),
        inArray(staffAudit.action, [...STAFF_READS]),
      ),
    )
    .orderBy(asc(staffAudit.at), asc(staffAudit.id));

  const answers = application ? await vaultOf(ctx).open(user, application.answers) : {};
  const definition = definitionAt(application?.definitionVersion);
  const answered = answerColumns(definition, { codes: true })
    .filter((column) => answers[column.key] !== undefined)
    .map((column) => ({ key: column.key, question: column.label, answer: answers[column.key] }));
  const labelOf = new Map(answerColumns(definition).map((column) => [column.key, column.label]));

  const entries: Record<string, Uint8Array> = {};
  const documentList = [];
  for (const file of files) {
    const path = `documents/${fileSafe(file.questionKey)}/${fileSafe(file.fileName)}`;
    const bytes = await ctx.storage.get(file.fileKey);
    if (bytes) entries[path] = bytes;
    documentList.push({
      question_key: file.questionKey,
      question: labelOf.get(file.questionKey) ?? file.questionKey,
      file_name: file.fileName,
      file_size: file.fileSize,
      file: bytes ? path : null,
    });
  }
  if (pdf?.status === 'COMPLETED' && pdf.pdfKey) {
    const bytes = await ctx.storage.get(pdf.pdfKey);
    if (bytes) entries['application.pdf'] = bytes;
  }
  const submitted = application?.submittedAt ?? null;
  const reference = submitted ? applicationReference(user.userId) : null;
  const iso = (at: Date | null | undefined) => at?.toISOString() ?? null;
  const events = [
    { event: 'signed_up', at: iso(account?.createdAt) },
    ...(account?.confirmedAt ? [{ event: 'confirmed', at: iso(account.confirmedAt) }] : []),
    ...logins.map((login) => ({ event: 'logged_in', at: iso(login.at) })),
    ...statuses.map((row) => ({ event: `status: ${row.status}`, at: iso(row.at) })),
    ...(submitted ? [{ event: 'submitted', at: iso(submitted) }] : []),
    ...(deletionRequest ? [{ event: 'deletion_requested', at: iso(deletionRequest.at) }] : []),
  ];
  const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);
  entries['application.json'] = json({
    reference,
    submitted_at: iso(submitted),
    last_saved_at: iso(application?.updatedAt),
    answers: answered,
    documents: documentList,
  });
  entries['account.json'] = json({
    email: user.email,
    events,
    staff_reads: reads.map((read) => ({ at: iso(read.at), action: read.action })),
  });
  return {
    fileName: `${reference ?? 'account'}-data.zip`,
    zip: zipSync(entries, { level: 6 }),
  };
}
