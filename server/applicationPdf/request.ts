/** Asking for an up-to-date PDF: one statement decides whether a new generation and job are due. */
import { and, eq, lt, or, sql } from 'drizzle-orm';
import { pdfMessages } from '#contract';
import { applicationPdfs } from '../db/schema';
import type { Applicant } from '../http/context';
import type { DefinitionAt } from '../tenant';
import {
  APPLICATION_PDF_JOB,
  pdfRowOf,
  type ApplicationPdfContext,
  type PdfPayload,
} from './context';
import { readSourcesAndPdf } from './sources';

/** A failed PDF is shown as FAILED for this long before a request tries again (SPEC 4.5's toast). */
const PDF_RETRY_AFTER_FAILURE_MS = 60_000;

/** Whether a PDF row needs a new generation: the sources changed, or it failed a while ago. */
function isDue(row: typeof applicationPdfs.$inferSelect, digest: string, now: Date): boolean {
  return (
    row.source !== digest ||
    (row.status === 'FAILED' &&
      row.updatedAt.getTime() < now.getTime() - PDF_RETRY_AFTER_FAILURE_MS)
  );
}

/**
 * Asks for an up-to-date PDF: when there is none, when its sources changed since it was made (or
 * asked for), or when the last try failed a minute or more ago, the row takes a new generation and a
 * job is queued; one statement decides, so concurrent requests queue one job per change. A row that
 * is current when read is returned without a write. Returns the row as it stands.
 */
export async function requestPdf(
  ctx: ApplicationPdfContext,
  user: Applicant,
  definitions: DefinitionAt,
): Promise<typeof applicationPdfs.$inferSelect> {
  const { sources, pdf } = await readSourcesAndPdf(ctx, user, definitions);
  const now = ctx.config.now();
  if (pdf && !isDue(pdf, sources.digest, now)) return pdf;
  const [requested] = await ctx.db
    .insert(applicationPdfs)
    .values({
      tenantId: user.tenantId,
      userId: user.userId,
      status: 'UNPROCESSED',
      message: pdfMessages.unprocessed,
      source: sources.digest,
      generation: 1,
      requestedAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [applicationPdfs.tenantId, applicationPdfs.userId],
      set: {
        status: 'UNPROCESSED',
        message: pdfMessages.unprocessed,
        source: sources.digest,
        generation: sql`${applicationPdfs.generation} + 1`,
        requestedAt: now,
        updatedAt: now,
      },
      setWhere: or(
        sql`${applicationPdfs.source} <> ${sources.digest}`,
        and(
          eq(applicationPdfs.status, 'FAILED'),
          lt(applicationPdfs.updatedAt, new Date(now.getTime() - PDF_RETRY_AFTER_FAILURE_MS)),
        ),
      ),
    })
    .returning();
  if (requested) {
    await ctx.queue.enqueue(APPLICATION_PDF_JOB, {
      tenantId: user.tenantId,
      userId: user.userId,
      generation: requested.generation,
    } satisfies PdfPayload);
    return requested;
  }
  const [row] = await ctx.db.select().from(applicationPdfs).where(pdfRowOf(user));
  if (!row) throw new Error('application PDF row missing after upsert');
  return row;
}
