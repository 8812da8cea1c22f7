/** Converting an uploaded file to PDF: the request that queues it and the job that does it. */
import { and, eq } from 'drizzle-orm';
import { documentMessages, fileProblem } from '#contract';
import type { Definition } from '#runtime';
import { convertToPdf, printedByChromium } from '../conversion/convert';
import { documents } from '../db/schema';
import { HttpError } from '../errors';
import type { Job } from '../jobs/queue';
import { convertedKey } from '../storage/storage';
import type { Applicant } from '../http/context';
import { whileOpen } from '../application';
import { assertFileQuestion, assertOwnUploadKey } from './checks';
import {
  CONVERSION_JOB,
  documentRowOf,
  findDocument,
  ownerOf,
  removeObjects,
  UPLOAD_SWEEP_JOB,
  type ConversionPayload,
  type DocumentsContext,
} from './context';

/** POST /api/pdf/document-answer/{key}: checks the uploaded file and queues its conversion. */
export async function requestConversion(
  ctx: DocumentsContext,
  user: Applicant,
  definition: Definition,
  questionKey: string,
  body: { file_key: string; file_name: string },
): Promise<void> {
  assertFileQuestion(definition, questionKey);
  assertOwnUploadKey(user, questionKey, body.file_key);
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
    const [before] = await tx.select().from(documents).where(documentRowOf(user, questionKey));
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
  await ctx.queue.enqueue(
    CONVERSION_JOB,
    {
      tenantId: user.tenantId,
      userId: user.userId,
      questionKey,
      generation,
    } satisfies ConversionPayload,
    // A Word file is printed: it waits in the print lane, never in front of an image (D136).
    { lane: printedByChromium(body.file_name) ? 'print' : 'fast' },
  );
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
    .where(
      and(
        documentRowOf(payload, payload.questionKey),
        eq(documents.generation, payload.generation),
      ),
    )
    .returning({ key: documents.questionKey });
  return updated.length > 0;
}

/** The `document-conversion` job kind. */
export function conversionJob(ctx: DocumentsContext) {
  return {
    maxAttempts: 3,
    async run(job: Job<ConversionPayload>): Promise<void> {
      const payload = job.payload;
      const row = await findDocument(ctx, payload, payload.questionKey);
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
