/** What the document modules share: their context, the job kinds and payloads, the applicant's row. */
import { and, eq } from 'drizzle-orm';
import type { ConversionSandbox } from '../conversion/sandbox';
import { documents } from '../db/schema';
import type { JobQueue } from '../jobs/queue';
import type { ChromiumPrinter } from '../pdf/chromium';
import type { ObjectStorage } from '../storage/storage';
import type { Applicant, ServiceContext } from '../http/context';

export const CONVERSION_JOB = 'document-conversion';
/** The job that deletes an upload never claimed by a conversion request (D71). */
export const UPLOAD_SWEEP_JOB = 'upload-sweep';

export interface DocumentsContext extends ServiceContext {
  readonly storage: ObjectStorage;
  readonly queue: JobQueue;
  readonly printer: ChromiumPrinter;
  /** Where the CPU-bound part of conversions runs (a worker thread); in process when absent. */
  readonly sandbox?: ConversionSandbox;
}

export interface ConversionPayload extends Record<string, unknown> {
  tenantId: string;
  userId: string;
  questionKey: string;
  generation: number;
}

export interface SweepPayload extends Record<string, unknown> {
  tenantId: string;
  userId: string;
  fileKey: string;
}

/**
 * The owner fields of a job payload. A session's user carries more (its e-mail, its session hash),
 * which no payload holds: a match on the whole user would match no job and cancel nothing.
 */
export const ownerOf = (user: Applicant) => ({ tenantId: user.tenantId, userId: user.userId });

/** The applicant's row for one file question. */
export const documentRowOf = (user: Applicant, questionKey: string) =>
  and(
    eq(documents.tenantId, user.tenantId),
    eq(documents.userId, user.userId),
    eq(documents.questionKey, questionKey),
  );

export async function findDocument(ctx: DocumentsContext, user: Applicant, questionKey: string) {
  const [row] = await ctx.db.select().from(documents).where(documentRowOf(user, questionKey));
  return row;
}

/** Deletes the stored objects named (an absent key is skipped). */
export async function removeObjects(ctx: DocumentsContext, keys: (string | null | undefined)[]) {
  for (const key of keys) if (key) await ctx.storage.delete(key);
}
