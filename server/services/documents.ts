/**
 * Documents (SPEC 4.4, 7.2): presigned uploads, conversion requests and their status, document answers
 * and deletion. Every query is scoped by tenant and user; a file key is accepted only under the
 * applicant's own `<tenant>/<user>/<question>/` prefix.
 */
import { and, asc, count, eq, sql } from 'drizzle-orm';
import {
  documentMessages,
  fileProblem,
  type ConversionResponse,
  type DocumentAnswers,
} from '../../contract';
import { keySpec, type Definition } from '../../runtime';
import { convertToPdf } from '../conversion/convert';
import type { ConversionSandbox } from '../conversion/sandbox';
import { documents, jobs } from '../db/schema';
import { HttpError } from '../errors';
import type { Job, JobQueue } from '../jobs/queue';
import type { ChromiumPrinter } from '../pdf/chromium';
import {
  convertedKey,
  isWellFormedKey,
  keyPrefix,
  uploadKey,
  UPLOAD_POLICY,
  type ObjectStorage,
  type PresignedPost,
} from '../storage/storage';
import type { ServiceContext } from './context';
import { underAccountLock } from './accountLock';
import { assertNotSubmitted, whileOpen } from './openApplication';

export const CONVERSION_JOB = 'document-conversion';
/** The job that deletes an upload never claimed by a conversion request (issue 15.8, D71). */
export const UPLOAD_SWEEP_JOB = 'upload-sweep';
/** An upload is swept this long after its form was handed out (the form expires in 10 minutes). */
export const UPLOAD_SWEEP_AFTER_MS = UPLOAD_POLICY.expiresInSeconds * 1000 + 5 * 60 * 1000;
/**
 * Uploads an applicant may have waiting (handed out, not yet used by a conversion request nor
 * swept). With one document and its PDF per file question, an applicant's stored objects stay within
 * this many more, each at most MAX_FILE_BYTES (issue 15.8, D71).
 */
export const MAX_PENDING_UPLOADS = 20;

export interface DocumentsContext extends ServiceContext {
  readonly storage: ObjectStorage;
  readonly queue: JobQueue;
  readonly printer: ChromiumPrinter;
  /** Where the CPU-bound part of conversions runs (a worker thread); in process when absent. */
  readonly sandbox?: ConversionSandbox;
}

interface Scope {
  readonly tenantId: string;
  readonly userId: string;
}

interface ConversionPayload extends Record<string, unknown> {
  tenantId: string;
  userId: string;
  questionKey: string;
  generation: number;
}

interface SweepPayload extends Record<string, unknown> {
  tenantId: string;
  userId: string;
  fileKey: string;
}

/**
 * The owner fields of a job payload. A session's user carries more (its e-mail, its session hash),
 * which no payload holds: a match on the whole user matched no job, so nothing was ever cancelled.
 */
const ownerOf = (user: Scope) => ({ tenantId: user.tenantId, userId: user.userId });

const QUESTION_KEY = /^[A-Za-z0-9_]{1,128}$/;

/** The key must name a file question of the tenant's definition. */
export function assertFileQuestion(definition: Definition, key: string): void {
  if (!QUESTION_KEY.test(key) || keySpec(definition, key)?.type !== 'document')
    throw new HttpError(400, documentMessages.notFileQuestion(key.slice(0, 128)));
}

const rowOf = (user: Scope, questionKey: string) =>
  and(
    eq(documents.tenantId, user.tenantId),
    eq(documents.userId, user.userId),
    eq(documents.questionKey, questionKey),
  );

async function findRow(ctx: DocumentsContext, user: Scope, questionKey: string) {
  const [row] = await ctx.db.select().from(documents).where(rowOf(user, questionKey));
  return row;
}

export async function presign(
  ctx: DocumentsContext,
  user: Scope,
  definition: Definition,
  questionKey: string,
): Promise<PresignedPost> {
  assertFileQuestion(definition, questionKey);
  await assertNotSubmitted(ctx, user);
  const key = uploadKey(user.tenantId, user.userId, questionKey);
  // Each form handed out is an upload waiting to be used: its sweep job is its reservation, counted
  // and queued under the applicant's lock so a burst cannot pass the cap together.
  await underAccountLock(ctx, user.tenantId, 'uploads', user.userId, async (tx) => {
    const [waiting] = await tx
      .select({ n: count() })
      .from(jobs)
      .where(
        and(
          eq(jobs.kind, UPLOAD_SWEEP_JOB),
          eq(jobs.status, 'queued'),
          sql`${jobs.payload} @> ${JSON.stringify({ tenantId: user.tenantId, userId: user.userId })}::jsonb`,
        ),
      );
    if (Number(waiting?.n ?? 0) >= MAX_PENDING_UPLOADS)
      throw new HttpError(429, documentMessages.tooManyUploads);
    await ctx.queue.enqueue(
      UPLOAD_SWEEP_JOB,
      { tenantId: user.tenantId, userId: user.userId, fileKey: key } satisfies SweepPayload,
      { delayMs: UPLOAD_SWEEP_AFTER_MS, db: tx },
    );
  });
  return ctx.storage.presignPost(key);
}

async function removeObjects(ctx: DocumentsContext, keys: (string | null | undefined)[]) {
  for (const key of keys) if (key) await ctx.storage.delete(key);
}

/** POST /api/pdf/document-answer/{key}: checks the uploaded file and queues its conversion. */
export async function requestConversion(
  ctx: DocumentsContext,
  user: Scope,
  definition: Definition,
  questionKey: string,
  body: { file_key: string; file_name: string },
): Promise<void> {
  assertFileQuestion(definition, questionKey);
  const prefix = keyPrefix(user.tenantId, user.userId, questionKey);
  // Another applicant's key, or a key the server never built, is simply not found.
  if (!body.file_key.startsWith(prefix) || !isWellFormedKey(body.file_key))
    throw new HttpError(404, documentMessages.uploadNotFound);
  const stored = await ctx.storage.exists(body.file_key);
  if (!stored) throw new HttpError(404, documentMessages.uploadNotFound);
  // The upload is used (or refused below and deleted): it no longer waits to be swept.
  await ctx.queue.cancel(UPLOAD_SWEEP_JOB, { ...ownerOf(user), fileKey: body.file_key });
  const problem = fileProblem({ name: body.file_name, size: stored.size });
  if (problem) {
    await ctx.storage.delete(body.file_key);
    throw new HttpError(400, problem);
  }
  const now = ctx.config.now();
  // The row is written under the application's lock: an upload racing a submit lands before it or
  // is refused (D69).
  const written = await whileOpen(ctx, user, async (tx) => {
    const [before] = await tx.select().from(documents).where(rowOf(user, questionKey));
    const values = {
      fileKey: body.file_key,
      fileName: body.file_name,
      fileSize: stored.size,
      status: 'UNPROCESSED',
      message: documentMessages.unprocessed,
      error: null,
      pdfKey: null,
      answered: false,
      generation: (before?.generation ?? 0) + 1,
      updatedAt: now,
    };
    await tx
      .insert(documents)
      .values({ tenantId: user.tenantId, userId: user.userId, questionKey, ...values })
      .onConflictDoUpdate({
        target: [documents.tenantId, documents.userId, documents.questionKey],
        set: values,
      });
    return { row: before, generation: values.generation };
  }).catch(async (error: unknown) => {
    // An upload refused after submit is not kept.
    if (error instanceof HttpError) await ctx.storage.delete(body.file_key);
    throw error;
  });
  const { row: previous, generation } = written;
  if (previous) {
    await ctx.queue.cancel(CONVERSION_JOB, { ...ownerOf(user), questionKey });
    await removeObjects(ctx, [
      previous.fileKey !== body.file_key ? previous.fileKey : null,
      previous.pdfKey,
    ]);
  }
  await ctx.queue.enqueue(CONVERSION_JOB, {
    tenantId: user.tenantId,
    userId: user.userId,
    questionKey,
    generation,
  } satisfies ConversionPayload);
}

export async function conversionStatus(
  ctx: DocumentsContext,
  user: Scope,
  definition: Definition,
  questionKey: string,
): Promise<ConversionResponse> {
  assertFileQuestion(definition, questionKey);
  const row = await findRow(ctx, user, questionKey);
  if (!row?.status)
    return { status: 'NOT_ANSWERED', message: documentMessages.notAnswered, error: null };
  return {
    status: row.status as ConversionResponse['status'],
    message: row.message ?? '',
    error: row.error,
  };
}

/** DELETE /api/pdf/document-answer/{key}: the conversion goes (a queued or running one is dropped). */
export async function deleteConversion(
  ctx: DocumentsContext,
  user: Scope,
  definition: Definition,
  questionKey: string,
): Promise<void> {
  assertFileQuestion(definition, questionKey);
  const row = await whileOpen(ctx, user, async (tx) => {
    const [found] = await tx.select().from(documents).where(rowOf(user, questionKey));
    if (!found) return undefined;
    await tx
      .update(documents)
      .set({
        status: null,
        message: null,
        error: null,
        pdfKey: null,
        generation: found.generation + 1,
        updatedAt: ctx.config.now(),
      })
      .where(rowOf(user, questionKey));
    return found;
  });
  if (!row) return;
  await ctx.queue.cancel(CONVERSION_JOB, { ...ownerOf(user), questionKey });
  await removeObjects(ctx, [row.pdfKey]);
}

/** DELETE /api/document-answer/{key}: the file, its conversion and the answer go. */
export async function deleteDocumentAnswer(
  ctx: DocumentsContext,
  user: Scope,
  definition: Definition,
  questionKey: string,
): Promise<void> {
  assertFileQuestion(definition, questionKey);
  const [row] = await whileOpen(ctx, user, (tx) =>
    tx.delete(documents).where(rowOf(user, questionKey)).returning(),
  );
  if (!row) return;
  await ctx.queue.cancel(CONVERSION_JOB, { ...ownerOf(user), questionKey });
  await removeObjects(ctx, [row.fileKey, row.pdfKey]);
}

/** GET /api/document-answer (and the profile): the files whose conversion completed. */
export async function documentAnswers(
  ctx: Pick<ServiceContext, 'db'>,
  user: Scope,
): Promise<DocumentAnswers> {
  const rows = await ctx.db
    .select({
      key: documents.questionKey,
      fileName: documents.fileName,
      fileSize: documents.fileSize,
    })
    .from(documents)
    .where(
      and(
        eq(documents.tenantId, user.tenantId),
        eq(documents.userId, user.userId),
        eq(documents.answered, true),
      ),
    );
  return Object.fromEntries(
    rows.map((row) => [row.key, { file_name: row.fileName, file_size: row.fileSize }]),
  );
}

/**
 * The document answers of an applicant with their converted PDFs and generations, by question key
 * (the application PDF appends them, and a new generation makes it stale).
 */
export async function convertedDocuments(
  ctx: Pick<ServiceContext, 'db'>,
  user: Scope,
): Promise<{ questionKey: string; fileName: string; pdfKey: string; generation: number }[]> {
  const rows = await ctx.db
    .select({
      questionKey: documents.questionKey,
      fileName: documents.fileName,
      pdfKey: documents.pdfKey,
      generation: documents.generation,
    })
    .from(documents)
    .where(
      and(
        eq(documents.tenantId, user.tenantId),
        eq(documents.userId, user.userId),
        eq(documents.answered, true),
      ),
    )
    .orderBy(asc(documents.questionKey));
  return rows.flatMap((row) => (row.pdfKey ? [{ ...row, pdfKey: row.pdfKey }] : []));
}

/** Sets the outcome only while the row still holds the job's generation (a newer upload wins). */
async function settle(
  ctx: DocumentsContext,
  payload: ConversionPayload,
  values: Partial<typeof documents.$inferInsert>,
): Promise<boolean> {
  const updated = await ctx.db
    .update(documents)
    .set({ ...values, updatedAt: ctx.config.now() })
    .where(and(rowOf(payload, payload.questionKey), eq(documents.generation, payload.generation)))
    .returning({ key: documents.questionKey });
  return updated.length > 0;
}

/** The `document-conversion` job kind. */
export function conversionJob(ctx: DocumentsContext) {
  return {
    maxAttempts: 3,
    async run(job: Job<ConversionPayload>): Promise<void> {
      const payload = job.payload;
      const row = await findRow(ctx, payload, payload.questionKey);
      if (!row || row.generation !== payload.generation || !row.status) return;
      if (row.status === 'COMPLETED' || row.status === 'FAILED') return;
      await settle(ctx, payload, {
        status: 'IN_PROGRESS',
        message: documentMessages.inProgress,
      });
      const bytes = await ctx.storage.get(row.fileKey);
      if (!bytes) {
        await settle(ctx, payload, {
          status: 'FAILED',
          message: documentMessages.uploadNotFound,
          error: documentMessages.uploadNotFound,
        });
        return;
      }
      const result = await convertToPdf(bytes, row.fileName, ctx.printer, {
        ...(ctx.sandbox ? { runner: ctx.sandbox.run } : {}),
      });
      if (!result.ok) {
        ctx.log.info({ job: job.id }, 'document conversion refused');
        await settle(ctx, payload, {
          status: 'FAILED',
          message: result.message,
          error: result.message,
          answered: false,
        });
        return;
      }
      const pdfKey = convertedKey(row.fileKey);
      await ctx.storage.put(pdfKey, result.pdf, 'application/pdf');
      const kept = await settle(ctx, payload, {
        status: 'COMPLETED',
        message: documentMessages.completed,
        error: null,
        pdfKey,
        answered: true,
      });
      if (!kept) await ctx.storage.delete(pdfKey);
    },
    async onGiveUp(job: Job<ConversionPayload>): Promise<void> {
      await settle(ctx, job.payload, {
        status: 'FAILED',
        message: documentMessages.conversionFailed,
        error: documentMessages.conversionFailed,
        answered: false,
      });
    },
  };
}

/**
 * The `upload-sweep` job kind: an upload that no document row holds by the time its form has long
 * expired was never converted (or was replaced and already deleted); its object is deleted.
 */
export function uploadSweepJob(ctx: DocumentsContext) {
  return {
    maxAttempts: 3,
    async run(job: Job<SweepPayload>): Promise<void> {
      const { tenantId, userId, fileKey } = job.payload;
      const [held] = await ctx.db
        .select({ key: documents.questionKey })
        .from(documents)
        .where(
          and(
            eq(documents.tenantId, tenantId),
            eq(documents.userId, userId),
            eq(documents.fileKey, fileKey),
          ),
        );
      if (!held) await ctx.storage.delete(fileKey);
    },
  };
}
