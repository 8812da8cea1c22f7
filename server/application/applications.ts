/**
 * The applicant's application: answers, status, last page and submit (SPEC 3.2, 4.1, 7.2 /api/*);
 * add-another and tab state are in formState.ts, temporary answers in tmpAnswers.ts. Every save is checked against the tenant's data model with the same runtime the
 * client uses; submit re-validates everything on the server.
 */
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { answerProblems, keySpec, validateAnswers, type Definition } from '../../runtime';
import {
  applicationReference,
  collegeTime,
  serverMessages,
  WEB_STATUSES,
  type WebStatus,
} from '../../contract';
import { applications, documents, successfulLogins, webStatusEvents } from '../db/schema';
import { HttpError } from '../errors';
import type { ServiceContext } from '../http/context';
import { withDefinitionChoices } from './choices';
import { answeredOf } from '../db/answeredDocuments';
import {
  conflictingKeys,
  isRetiredKeyRefusal,
  mergeAnswers,
  othersSince,
  saveUnlessConflicting,
} from './answerStatements';
import { sealedVersionOf, vaultOf } from '../crypto/answerVault';
import { holdSealingKey } from '../crypto/dataKeys';
import { submittedRefusal } from './openApplication';
import type { SessionUser, Transaction } from '../account';

export type Scope = Pick<SessionUser, 'tenantId' | 'userId' | 'email'>;

export const where = (user: Scope) =>
  and(eq(applications.tenantId, user.tenantId), eq(applications.userId, user.userId));

/**
 * The application row, created on first use and locked until the transaction ends, with the keys of
 * the save that conflict and the others' keys since the base version (answerStatements.ts): one
 * statement (an upsert whose no-op update takes the row lock and returns the row).
 */
async function lockApplication(tx: Transaction, user: Scope, now: Date, save: SQL, since: number) {
  const baseVersion = sql`${since}::int`;
  const [row] = await tx
    .insert(applications)
    .values({ tenantId: user.tenantId, userId: user.userId, updatedAt: now })
    .onConflictDoUpdate({
      target: [applications.tenantId, applications.userId],
      set: { version: sql`${applications.version}` },
    })
    .returning({
      answers: applications.answers,
      keyVersions: applications.keyVersions,
      version: applications.version,
      submittedAt: applications.submittedAt,
      conflicting: conflictingKeys(save, baseVersion),
      others: othersSince(save, baseVersion),
    });
  if (!row) throw new Error('application row missing after upsert');
  return row;
}

/** The application row, created on first use (read first: it exists for all but the first call). */
export async function loadApplication(ctx: ServiceContext, user: Scope) {
  const [existing] = await ctx.db.select().from(applications).where(where(user));
  if (existing) return existing;
  await ctx.db
    .insert(applications)
    .values({ tenantId: user.tenantId, userId: user.userId, updatedAt: ctx.config.now() })
    .onConflictDoNothing();
  const [row] = await ctx.db.select().from(applications).where(where(user));
  if (!row) throw new Error('application row missing after insert');
  return row;
}

/**
 * The row with the web statuses, the logins and the document answers, read in one statement (D123);
 * created on first use.
 */
async function profileRow(ctx: ServiceContext, user: Scope) {
  const read = () =>
    ctx.db
      .select({
        application: applications,
        webStatus: sql<
          string[]
        >`(select coalesce(json_agg(${webStatusEvents.webStatus} order by ${webStatusEvents.id}), '[]') from ${webStatusEvents} where ${and(eq(webStatusEvents.tenantId, user.tenantId), eq(webStatusEvents.userId, user.userId))})`,
        loginsMs: sql<
          number[]
        >`(select coalesce(json_agg((extract(epoch from ${successfulLogins.at}) * 1000)::float8 order by ${successfulLogins.id}), '[]') from ${successfulLogins} where ${and(eq(successfulLogins.tenantId, user.tenantId), eq(successfulLogins.userId, user.userId))})`,
        documents: sql<
          [string, string, number][]
        >`(select coalesce(json_agg(json_build_array(${documents.questionKey}, ${documents.fileName}, ${documents.fileSize})), '[]') from ${documents} where ${answeredOf(user)})`,
      })
      .from(applications)
      .where(where(user));
  const [row] = await read();
  if (row) return row;
  await loadApplication(ctx, user);
  const [created] = await read();
  if (!created) throw new Error('application row missing after insert');
  return created;
}

export async function profile(ctx: ServiceContext, user: Scope) {
  const { application, webStatus, loginsMs, documents: answered } = await profileRow(ctx, user);
  return {
    answer: await vaultOf(ctx).open(user, application.answers),
    document_answer: Object.fromEntries(
      answered.map(([key, fileName, fileSize]) => [
        key,
        { file_name: fileName, file_size: fileSize },
      ]),
    ),
    /** REQ-R-2: the version these answers are at; send it back as If-Match when saving. */
    version: application.version,
    username: user.email,
    last_page: application.lastPage,
    successful_login: loginsMs.map((ms) => ({ at: new Date(ms).toISOString() })),
    web_status: webStatus.map((web_status) => ({ web_status })),
    submission: application.submittedAt
      ? {
          reference: applicationReference(user.userId),
          submitted_at: application.submittedAt.toISOString(),
        }
      : null,
  };
}

/** Rejects an answer map with keys outside the data model or values of the wrong type, naming them. */
export function assertAcceptableAnswers(definition: Definition, answers: unknown): void {
  const problems = answerProblems(definition, answers);
  if (problems.length === 0) return;
  const unknown = problems.filter((p) => p.reason === 'unknownKey').map((p) => p.key);
  if (unknown.length > 0)
    throw new HttpError(400, serverMessages.unknownKeys(unknown.slice(0, 20)));
  throw new HttpError(400, serverMessages.badValues(problems.map((p) => p.key).slice(0, 20)));
}

/** The answers' version, written as an entity tag (REQ-R-2). */
export const versionTag = (version: number) => `"${version}"`;

/**
 * Merges the answers into the stored ones. Refused once the application is submitted.
 *
 * Without a base version (SPEC 7.2's plain call) it is one statement: per key the last write wins,
 * and no key written by a concurrent save is lost. With the version the client last saw
 * (`If-Match`, SECURITY.md REQ-R-2) a key that was changed since to another value is a conflict: the
 * other keys are saved and the answer is 409 with both values of each conflicting key. Either way
 * `others` carries the keys that other tabs or devices changed since the base version.
 */
export async function saveAnswers(
  ctx: ServiceContext,
  user: Scope,
  definition: Definition,
  answers: Record<string, unknown>,
  baseVersion?: number,
): Promise<{ message: string; version: number; others?: Record<string, unknown> }> {
  assertAcceptableAnswers(definition, answers);
  const plain = await withDefinitionChoices(ctx, user, definition, answers);
  const vault = vaultOf(ctx);
  // Sensitive values are sealed before they reach the database (D150). Sealed under a version
  // retired meanwhile (a stale read of the current one), the save wrote nothing: they are sealed
  // again under the version read anew and saved once more (D183).
  for (let attempt = 1; ; attempt++) {
    const stored = await vault.sealFor(user, definition, plain);
    try {
      return await writeAnswers(ctx, user, { plain, stored }, baseVersion);
    } catch (error) {
      if (attempt > 1 || !isRetiredKeyRefusal(error)) throw error;
      vault.keys.forgetCurrent(user.tenantId);
    }
  }
}

async function writeAnswers(
  ctx: ServiceContext,
  user: Scope,
  { plain: answers, stored }: SavedAnswers,
  baseVersion: number | undefined,
): Promise<{ message: string; version: number; others?: Record<string, unknown> }> {
  if (baseVersion !== undefined)
    return saveAnswersSince(ctx, user, { plain: answers, stored }, baseVersion);
  const saved = await mergeAnswers(ctx.db).execute({
    tenantId: user.tenantId,
    userId: user.userId,
    answers: stored,
    keyVersion: sealedVersionOf(stored),
    keyVersions: Object.fromEntries(Object.keys(answers).map((key) => [key, 1])),
    now: ctx.config.now(),
  });
  const [row] = saved;
  if (!row) throw submittedRefusal();
  return { message: serverMessages.saved, version: row.version };
}

/** The answers of a save as the applicant sent them and as they are stored (sealed, D150). */
interface SavedAnswers {
  readonly plain: Record<string, unknown>;
  readonly stored: Record<string, unknown>;
}

async function saveAnswersSince(
  ctx: ServiceContext,
  user: Scope,
  { plain: answers, stored }: SavedAnswers,
  baseVersion: number,
): Promise<{ message: string; version: number; others: Record<string, unknown> }> {
  const now = ctx.config.now();
  const vault = vaultOf(ctx);
  const keyVersion = sealedVersionOf(stored);
  // Almost always nothing conflicts: then the save is one statement (D130). A conflict, a row not
  // yet created or a submitted application takes the transaction below, which tells them apart.
  if (Object.keys(answers).length > 0) {
    const [saved] = await saveUnlessConflicting(ctx.db).execute({
      tenantId: user.tenantId,
      userId: user.userId,
      answers: JSON.stringify(stored),
      baseVersion,
      keyVersion,
      now: now.toISOString(),
    });
    if (saved)
      return {
        message: serverMessages.saved,
        version: saved.version,
        others: await vault.open(user, saved.others),
      };
  }
  const save = sql`${JSON.stringify(stored)}::jsonb`;
  const outcome = await ctx.db.transaction(async (tx) => {
    const row = await lockApplication(tx, user, now, save, baseVersion);
    if (row.submittedAt) return { submitted: true as const };
    // The statement decided which keys conflict; their stored values are shown beside the save's.
    const conflicting = new Set(row.conflicting);
    const theirs: Record<string, unknown> = {};
    const accepted: Record<string, unknown> = {};
    for (const key of Object.keys(answers))
      if (conflicting.has(key)) theirs[key] = row.answers[key] ?? null;
      else accepted[key] = stored[key];
    let version = row.version;
    if (Object.keys(accepted).length > 0) {
      await holdSealingKey(tx, user.tenantId, keyVersion);
      version += 1;
      const keyVersions = { ...row.keyVersions };
      for (const key of Object.keys(accepted)) keyVersions[key] = version;
      await tx
        .update(applications)
        .set({ answers: { ...row.answers, ...accepted }, keyVersions, version, updatedAt: now })
        .where(where(user));
    }
    return { submitted: false as const, theirs, version, others: row.others };
  });
  if (outcome.submitted) throw submittedRefusal();
  // Opened after the transaction: a data key not read yet is read on the embedded database's one
  // connection, which the transaction holds.
  const others = await vault.open(user, outcome.others);
  const theirs = await vault.open(user, outcome.theirs);
  if (Object.keys(theirs).length > 0)
    throw new HttpError(409, serverMessages.answerConflict, {
      code: 'CONFLICT',
      conflicts: Object.fromEntries(
        Object.entries(theirs).map(([key, value]) => [key, { mine: answers[key], theirs: value }]),
      ),
      version: outcome.version,
      others,
    });
  return { message: serverMessages.saved, version: outcome.version, others };
}

export async function addWebStatus(ctx: ServiceContext, user: Scope, webStatus: WebStatus) {
  if (webStatus === 'submitted') {
    const application = await loadApplication(ctx, user);
    if (!application.submittedAt) throw new HttpError(409, serverMessages.notSubmittedYet);
  }
  await ctx.db
    .insert(webStatusEvents)
    .values({ tenantId: user.tenantId, userId: user.userId, webStatus, at: ctx.config.now() })
    .onConflictDoNothing();
}

export async function setLastPage(
  ctx: ServiceContext,
  user: Scope,
  definition: Definition,
  lastPage: string,
) {
  const known =
    definition.pages.some((page) => page.path === lastPage) || lastPage === '/completion';
  if (!known) throw new HttpError(400, serverMessages.badRequest);
  await loadApplication(ctx, user);
  await ctx.db
    .update(applications)
    .set({ lastPage, updatedAt: ctx.config.now() })
    .where(where(user));
}

export async function saveValidations(
  ctx: ServiceContext,
  user: Scope,
  definition: Definition,
  errors: Record<string, string[]>,
) {
  const unknown = Object.keys(errors).filter((key) => !keySpec(definition, key));
  if (unknown.length > 0)
    throw new HttpError(400, serverMessages.unknownKeys(unknown.slice(0, 20)));
  await loadApplication(ctx, user);
  await ctx.db
    .update(applications)
    .set({ validations: errors, updatedAt: ctx.config.now() })
    .where(where(user));
}

/**
 * SPEC 4.1: submit re-validates the stored answers on the server. With errors: 422 and the error map,
 * nothing submitted. Submitting twice is harmless: one submission, one confirmation e-mail.
 *
 * Two statements and no transaction (D123): the row is read and validated, then marked submitted
 * only if it is still unsubmitted and unchanged since the read (version, add-another counts and
 * tabs), with its three web statuses in the same statement; a save in between means reading again.
 */
export async function submit(ctx: ServiceContext, user: Scope, definition: Definition) {
  const now = ctx.config.now();
  let outcome: 'submitted' | 'already' | undefined;
  while (!outcome) {
    const row = await loadApplication(ctx, user);
    if (row.submittedAt) outcome = 'already';
    else {
      const answers = await vaultOf(ctx).open(user, row.answers);
      const { errors } = validateAnswers(definition, answers, {
        now,
        addAnother: row.addAnother,
        tabs: row.tabs,
      });
      if (Object.keys(errors).length > 0)
        throw new HttpError(422, serverMessages.submitInvalid, { errors });
      if (await markSubmitted(ctx, user, row, now, definition.version)) outcome = 'submitted';
    }
  }
  // The receipt (D138): one per submission, named by its time in the institution's zone.
  if (outcome === 'submitted')
    await ctx.mail.send(user.tenantId, {
      template: 'submitted',
      to: user.email,
      args: [
        applicationReference(user.userId),
        collegeTime(now, ctx.institutionOf(user.tenantId).time_zone),
      ],
      event: `${user.userId}:${now.toISOString()}`,
    });
  return { message: serverMessages.submitted };
}

/** Marks the row submitted if it is still as read; false when it changed (or was submitted) since. */
async function markSubmitted(
  ctx: ServiceContext,
  user: Scope,
  row: typeof applications.$inferSelect,
  now: Date,
  definitionVersion: number,
): Promise<boolean> {
  const unchanged = and(
    where(user),
    isNull(applications.submittedAt),
    eq(applications.version, row.version),
    sql`${applications.addAnother} = ${JSON.stringify(row.addAnother)}::jsonb`,
    sql`${applications.tabs} = ${JSON.stringify(row.tabs)}::jsonb`,
  );
  const statuses = sql.join(
    // A submit records every web status, in order (SPEC 7.2 `web_status`).
    WEB_STATUSES.map(
      (status) =>
        sql`(${user.tenantId}, ${user.userId}::uuid, ${status}, ${now.toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
  const result = await ctx.db.execute(sql`with marked as (
      update ${applications} set submitted_at = ${now.toISOString()}::timestamptz,
        updated_at = ${now.toISOString()}::timestamptz, definition_version = ${definitionVersion}
      where ${unchanged} returning 1
    ),
    recorded as (
      insert into web_status_events (tenant_id, user_id, web_status, at)
      select v.* from (values ${statuses}) as v(tenant_id, user_id, web_status, at)
      where exists (select 1 from marked)
      on conflict do nothing
    )
    select count(*)::int as marked from marked`);
  return Number((result as unknown as { rows: { marked: number }[] }).rows[0]?.marked ?? 0) > 0;
}
