/**
 * Documents (SPEC 4.4, 7.2): presigned uploads, conversion requests and their status, document answers
 * and deletion. Every query is scoped by tenant and user; a file key is accepted only under the
 * applicant's own `<tenant>/<user>/<question>/` prefix.
 */
import { and, asc, eq } from 'drizzle-orm';
import {
  documentMessages,
  fileProblem,
  type ConversionResponse,
  type DocumentAnswers,
} from '../../contract';
import { keySpec, type Definition } from '../../runtime';
import { convertToPdf } from '../conversion/convert';
import type { ConversionSandbox } from '../conversion/sandbox';
import { documents } from '../db/schema';
import { HttpError } from '../errors';
import type { Job, JobQueue } from '../jobs/queue';
import type { ChromiumPrinter } from '../pdf/chromium';
import {
  convertedKey,
  isWellFormedKey,
  keyPrefix,
  uploadKey,
  type ObjectStorage,
  type PresignedPost,
} from '../storage/storage';
import type { ServiceContext } from './context';
import { assertNotSubmitted, whileOpen } from './openApplication';

export const CONVERSION_JOB = 'document-conversion';

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
  return ctx.storage.presignPost(uploadKey(user.tenantId, user.userId, questionKey));
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
    await ctx.queue.cancel(CONVERSION_JOB, { ...user, questionKey });
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
  await ctx.queue.cancel(CONVERSION_JOB, { ...user, questionKey });
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
  await ctx.queue.cancel(CONVERSION_JOB, { ...user, questionKey });
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
