/**
 * "Download PDFs" (D169): the filtered set's application PDFs as one ZIP, built by the worker. The
 * request counts the set (at most `PDF_BUNDLE_LIMIT`), records the bundle, audits it once and
 * queues the job in one transaction; the job adds each PDF (the stored one when it is current,
 * else printed as the PDF job prints it) under `<Last>-<First>-<reference>.pdf`, counting its
 * progress, and streams the ZIP into storage, sealed like every object (D176): one PDF at a time
 * in memory, whatever the count. Retention removes it a day after.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { ApplicationQuery } from '../../contract/staff';
import {
  bundleMessages,
  PDF_BUNDLE_LIMIT,
  type PdfBundleStatus,
} from '../../contract/staffExports';
import { collegeDay } from '../../contract/collegeTime';
import { staffPdfBundles } from '../db/schema';
import { HttpError } from '../errors';
import type { Job } from '../jobs/queue';
import {
  applicationReference,
  buildApplicationPdf,
  personalPdfFileName,
  readSourcesAndPdf,
  type ApplicationPdfContext,
} from '../applicationPdf';
import { filterOf } from './applicationList';
import { audit, type Actor } from '../db/auditTrail';
import { filterDetail } from './audit';
import { exportFileName } from './exportCsv';
import { searchOf } from './listSearch';
import { zipStream, type ZipEntry } from './zipStream';

export const PDF_BUNDLE_JOB = 'staff-pdf-bundle';

interface BundlePayload extends Record<string, unknown> {
  readonly tenantId: string;
  readonly bundleId: string;
}

type Rows<T> = { rows: T[] };
type Filter = Pick<ApplicationQuery, 'q' | 'status' | 'from' | 'to'>;

/** The set's rows in the name order, at most one more than the limit (to tell "too many"). */
async function setOf(ctx: ApplicationPdfContext, tenantId: string, filter: Filter, limit: number) {
  const timeZone = ctx.institutionOf(tenantId).time_zone;
  const where = filterOf(tenantId, filter, await searchOf(ctx.db, filter.q), timeZone);
  const result = (await ctx.db.execute(sql`select l.user_id from staff_listing l where ${where}
    order by l.sort_name, l.user_id limit ${limit}`)) as unknown as Rows<{ user_id: string }>;
  return result.rows.map((row) => row.user_id);
}

async function countOf(ctx: ApplicationPdfContext, tenantId: string, filter: Filter) {
  const timeZone = ctx.institutionOf(tenantId).time_zone;
  const where = filterOf(tenantId, filter, await searchOf(ctx.db, filter.q), timeZone);
  const result = (await ctx.db.execute(
    sql`select count(*)::int as n from staff_listing l where ${where}`,
  )) as unknown as Rows<{ n: number }>;
  return Number(result.rows[0]?.n ?? 0);
}

const statusOf = (row: typeof staffPdfBundles.$inferSelect): PdfBundleStatus => ({
  id: row.id,
  state: row.state,
  done: row.done,
  total: row.total,
  file_name: row.fileName,
});

/** Records the bundle, audits it and queues its job, in one transaction. */
export async function startPdfBundle(
  ctx: ApplicationPdfContext,
  actor: Actor,
  filter: Filter,
): Promise<PdfBundleStatus> {
  const tenantId = actor.tenantId;
  const total = await countOf(ctx, tenantId, filter);
  if (total > PDF_BUNDLE_LIMIT) throw new HttpError(400, bundleMessages.tooMany(total));
  if (total === 0) throw new HttpError(400, bundleMessages.empty);
  const now = ctx.config.now();
  const day = collegeDay(now, ctx.institutionOf(tenantId).time_zone);
  const stored = Object.fromEntries(
    Object.entries(filter).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(staffPdfBundles)
      .values({
        tenantId,
        staffUserId: actor.staffUserId,
        filter: stored,
        state: 'building',
        total,
        fileName: exportFileName(tenantId, filter, day).replace(/\.csv$/, '-pdfs.zip'),
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error('PDF bundle row missing after insert');
    await audit(
      { db: tx, config: ctx.config },
      actor,
      'application.pdf_bundle',
      null,
      [filterDetail(filter), `${total} PDFs`].filter(Boolean).join(', '),
    );
    await ctx.queue.enqueue(
      PDF_BUNDLE_JOB,
      { tenantId, bundleId: row.id } satisfies BundlePayload,
      { db: tx },
    );
    return statusOf(row);
  });
}

async function bundleOf(ctx: Pick<ApplicationPdfContext, 'db'>, tenantId: string, id: string) {
  const [row] = await ctx.db
    .select()
    .from(staffPdfBundles)
    .where(and(eq(staffPdfBundles.tenantId, tenantId), eq(staffPdfBundles.id, id)));
  if (!row) throw new HttpError(404, bundleMessages.noSuchBundle);
  return row;
}

export async function pdfBundleStatus(
  ctx: Pick<ApplicationPdfContext, 'db'>,
  tenantId: string,
  id: string,
): Promise<PdfBundleStatus> {
  return statusOf(await bundleOf(ctx, tenantId, id));
}

/**
 * The finished ZIP as a stream, its size and name; 409 while it is built, 404 once retention
 * removed it.
 */
export async function pdfBundleZip(ctx: ApplicationPdfContext, tenantId: string, id: string) {
  const row = await bundleOf(ctx, tenantId, id);
  if (row.state !== 'ready' || !row.objectKey) throw new HttpError(409, bundleMessages.notReady);
  const object = await ctx.storage.getStream(row.objectKey);
  if (!object) throw new HttpError(404, bundleMessages.noSuchBundle);
  return { ...object, fileName: row.fileName };
}

/** The PDF of one application: the stored one when it is current, else printed now. */
async function pdfOf(ctx: ApplicationPdfContext, tenantId: string, userId: string, now: Date) {
  const definitions = ctx.definitionsOf(tenantId);
  if (!definitions) throw new Error(`no definition for tenant ${tenantId}`);
  const { sources, pdf } = await readSourcesAndPdf(ctx, { tenantId, userId }, definitions);
  const stored =
    pdf?.status === 'COMPLETED' && pdf.pdfKey && pdf.source === sources.digest
      ? await ctx.storage.get(pdf.pdfKey)
      : null;
  const bytes = stored ?? (await buildApplicationPdf(ctx, sources.definition, sources, now));
  const name = personalPdfFileName({
    last: sources.answers.last_name,
    first: sources.answers.first_name,
    reference: applicationReference(userId),
  });
  return { name, bytes: new Uint8Array(bytes) } satisfies ZipEntry;
}

export function pdfBundleJob(ctx: ApplicationPdfContext) {
  const settle = (payload: BundlePayload, values: Partial<typeof staffPdfBundles.$inferInsert>) =>
    ctx.db
      .update(staffPdfBundles)
      .set(values)
      .where(
        and(
          eq(staffPdfBundles.tenantId, payload.tenantId),
          eq(staffPdfBundles.id, payload.bundleId),
        ),
      );
  return {
    maxAttempts: 2,
    // Printing is Chromium's: the print lane, as the PDF job (D136).
    lane: 'print' as const,
    async run(job: Job<BundlePayload>): Promise<void> {
      const { tenantId, bundleId } = job.payload;
      const [row] = await ctx.db
        .select()
        .from(staffPdfBundles)
        .where(and(eq(staffPdfBundles.tenantId, tenantId), eq(staffPdfBundles.id, bundleId)));
      if (!row || row.state !== 'building') return;
      const ids = await setOf(ctx, tenantId, row.filter, PDF_BUNDLE_LIMIT);
      await settle(job.payload, { total: ids.length, done: 0 });
      const now = ctx.config.now();
      // Each PDF is made when the ZIP asks for it; asked again, the one before has been written.
      async function* entries() {
        for (const [index, userId] of ids.entries()) {
          yield await pdfOf(ctx, tenantId, userId, now);
          await settle(job.payload, { done: index + 1 });
        }
      }
      const key = `${tenantId}/pdf-bundles/${bundleId}-${randomBytes(8).toString('hex')}.zip`;
      const zip = zipStream(entries(), now);
      try {
        await ctx.storage.putStream(key, zip, 'application/zip');
      } finally {
        zip.destroy();
      }
      await settle(job.payload, { state: 'ready', objectKey: key, finishedAt: ctx.config.now() });
      ctx.log.info({ job: job.id, pdfs: ids.length }, 'PDF bundle ready');
    },
    async onGiveUp(job: Job<BundlePayload>): Promise<void> {
      await settle(job.payload, { state: 'failed', finishedAt: ctx.config.now() });
    },
  };
}

/** The bundles finished more than `windowMs` ago go (retention); returns their objects' keys. */
export async function expirePdfBundles(
  ctx: Pick<ApplicationPdfContext, 'db'>,
  tenantId: string,
  before: Date,
): Promise<string[]> {
  const gone = await ctx.db
    .delete(staffPdfBundles)
    .where(
      and(
        eq(staffPdfBundles.tenantId, tenantId),
        isNotNull(staffPdfBundles.finishedAt),
        lt(staffPdfBundles.finishedAt, before),
      ),
    )
    .returning({ key: staffPdfBundles.objectKey });
  return gone.flatMap((row) => (row.key ? [row.key] : []));
}
