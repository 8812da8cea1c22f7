/**
 * Upload forms and their sweep: each form handed out reserves a place among the applicant's waiting
 * uploads, and an upload no document row holds once its form has long expired is deleted (D71).
 */
import { and, count, eq, sql } from 'drizzle-orm';
import { documentMessages } from '#contract';
import type { Definition } from '#runtime';
import { documents, jobs } from '../db/schema';
import { HttpError } from '../errors';
import type { Job } from '../jobs/queue';
import { uploadKey, UPLOAD_POLICY, type PresignedPost } from '../storage/storage';
import { underAccountLock } from '../account';
import type { Applicant } from '../http/context';
import { assertNotSubmitted } from '../application';
import { assertFileQuestion } from './checks';
import { UPLOAD_SWEEP_JOB, type DocumentsContext, type SweepPayload } from './context';

/** An upload is swept this long after its form was handed out (the form expires in 10 minutes). */
const UPLOAD_SWEEP_AFTER_MS = UPLOAD_POLICY.expiresInSeconds * 1000 + 5 * 60 * 1000;
/**
 * Uploads an applicant may have waiting (handed out, not yet used by a conversion request nor
 * swept). With one document and its PDF per file question, an applicant's stored objects stay within
 * this many more, each at most MAX_FILE_BYTES (D71).
 */
export const MAX_PENDING_UPLOADS = 20;

/** POST /api/presigned-url: an upload form for one file question. */
export async function presign(
  ctx: DocumentsContext,
  user: Applicant,
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
