/** The `application-pdf` job: prepares the PDF for one generation and keeps it only if still current. */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { pdfMessages } from '#contract';
import { applicationPdfs } from '../db/schema';
import type { Job } from '../jobs/queue';
import { applicationPdfPrefix } from '../storage/storage';
import type { Applicant } from '../http/context';
import { pdfRowOf, type ApplicationPdfContext, type PdfPayload } from './context';
import { buildApplicationPdf } from './print';
import { readSources } from './sources';

const pdfKeyPrefix = (user: Applicant) => applicationPdfPrefix(user.tenantId, user.userId);

/** Where a prepared PDF is kept: random per preparation, under the tenant and the applicant. */
function newPdfKey(user: Applicant): string {
  return `${pdfKeyPrefix(user)}${randomBytes(16).toString('hex')}.pdf`;
}

/** Sets the outcome only while the row still holds the job's generation (a newer request wins). */
async function settle(
  ctx: ApplicationPdfContext,
  payload: PdfPayload,
  values: Partial<typeof applicationPdfs.$inferInsert>,
): Promise<boolean> {
  const updated = await ctx.db
    .update(applicationPdfs)
    .set({ ...values, updatedAt: ctx.config.now() })
    .where(and(pdfRowOf(payload), eq(applicationPdfs.generation, payload.generation)))
    .returning({ generation: applicationPdfs.generation });
  return updated.length > 0;
}

export function applicationPdfJob(ctx: ApplicationPdfContext) {
  return {
    maxAttempts: 2,
    // Printed by Chromium: seconds each, in the worker's print lane (D136).
    lane: 'print' as const,
    async run(job: Job<PdfPayload>): Promise<void> {
      const payload = job.payload;
      const [row] = await ctx.db.select().from(applicationPdfs).where(pdfRowOf(payload));
      if (!row || row.generation !== payload.generation || row.status === 'COMPLETED') return;
      const definitions = ctx.definitionsOf(payload.tenantId);
      if (!definitions) throw new Error(`no definition for tenant ${payload.tenantId}`);
      await settle(ctx, payload, { status: 'IN_PROGRESS', message: pdfMessages.inProgress });
      const now = ctx.config.now();
      const sources = await readSources(ctx, payload, definitions);
      const pdf = await buildApplicationPdf(ctx, sources.definition, sources, now);
      const key = newPdfKey(payload);
      await ctx.storage.put(key, pdf, 'application/pdf');
      const kept = await settle(ctx, payload, {
        status: 'COMPLETED',
        message: pdfMessages.completed,
        pdfKey: key,
        // What it was made from: a change after the request was made is caught by the next request.
        source: sources.digest,
      });
      if (!kept) {
        await ctx.storage.delete(key);
        return;
      }
      if (row.pdfKey && row.pdfKey !== key) await ctx.storage.delete(row.pdfKey);
      ctx.log.info({ job: job.id, bytes: pdf.length }, 'application PDF prepared');
    },
    async onGiveUp(job: Job<PdfPayload>): Promise<void> {
      await settle(ctx, job.payload, { status: 'FAILED', message: pdfMessages.failed });
    },
  };
}
