/**
 * The applicant's PDF copy (SPEC 2.4, 3.4, 4.5, 7.2 `GET /api/pdf`; docs/decisions/ D55): the print
 * renderer set's HTML printed by the warm Chromium, the converted documents appended with pdf-lib,
 * stored, and handed out through a short-lived download URL that only works in the applicant's own
 * session. It is prepared by a job of the durable queue after submit and whenever it is asked for
 * while its sources (answers, tabs, documents, submission) have changed since it was made.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { pdfMessages, type ApplicationPdfResponse, PDF_DOWNLOAD_PARAM } from '../../contract';
import {
  applicantNameOf,
  PAGE_MARGIN_INCHES,
  printDate,
  renderApplicationHtml,
} from '../../renderers/print/render';
import {
  answersForCopy,
  addAnotherGroups,
  questionsOf,
  visibleView,
  type Definition,
} from '../../runtime';
import { applicationPdfs, applications } from '../db/schema';
import { HttpError } from '../errors';
import type { Job } from '../jobs/queue';
import { hmac, sameSecret, sha256 } from '../secrets';
import { convertedDocuments, type DocumentsContext } from './documents';
import { serviceTokenKey } from './serviceTokens';

export const APPLICATION_PDF_JOB = 'application-pdf';
/** How long a download URL works (longer than the 10-minute poll, so a shown link still opens). */
export const PDF_DOWNLOAD_TTL_MS = 15 * 60_000;
/** A failed PDF is shown as FAILED for this long before a request tries again (SPEC 4.5's toast). */
export const PDF_RETRY_AFTER_FAILURE_MS = 60_000;
/** Bump when the PDF's layout changes: every stored PDF is then prepared again when next asked for. */
const LAYOUT_VERSION = 2;

export interface ApplicationPdfContext extends DocumentsContext {
  /** The definition of a tenant (jobs run outside any request). */
  readonly definitionOf: (tenantId: string) => Definition | undefined;
}

interface Scope {
  readonly tenantId: string;
  readonly userId: string;
}

interface PdfPayload extends Record<string, unknown> {
  tenantId: string;
  userId: string;
  generation: number;
}

/** What the PDF is made from, and a digest of it that changes whenever any of it does. */
export interface Sources {
  readonly answers: Record<string, unknown>;
  readonly tabs: Record<string, string>;
  readonly submittedAt: Date | null;
  readonly documents: readonly { questionKey: string; fileName: string; pdfKey: string }[];
  /** The application reference printed on the first page (`applicationReference`). */
  readonly reference: string;
  readonly digest: string;
}

/**
 * The reference admissions files a copy under: the first 8 hex digits of the applicant's random id,
 * as `XXXX-XXXX` (staff find the applicant by that prefix; it reveals nothing the copy does not).
 */
export function applicationReference(userId: string): string {
  const hex = userId
    .replace(/[^0-9a-f]/gi, '')
    .slice(0, 8)
    .toUpperCase();
  return `${hex.slice(0, 4)}-${hex.slice(4)}`;
}

/** JSON with object keys sorted, so equal data always gives the same digest. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : inner,
  );
}

const applicantRow = (user: Scope) =>
  and(eq(applicationPdfs.tenantId, user.tenantId), eq(applicationPdfs.userId, user.userId));

async function readSources(
  ctx: ApplicationPdfContext,
  user: Scope,
  definition: Definition,
): Promise<Sources> {
  const [application] = await ctx.db
    .select({
      answers: applications.answers,
      tabs: applications.tabs,
      submittedAt: applications.submittedAt,
    })
    .from(applications)
    .where(and(eq(applications.tenantId, user.tenantId), eq(applications.userId, user.userId)));
  const attached = await convertedDocuments(ctx, user);
  const answers = application?.answers ?? {};
  const tabs = application?.tabs ?? {};
  const submittedAt = application?.submittedAt ?? null;
  const digest = sha256(
    canonicalJson({
      layout: LAYOUT_VERSION,
      definition: [definition.id, definition.version],
      answers,
      tabs,
      submittedAt: submittedAt?.toISOString() ?? null,
      documents: attached.map((row) => [row.questionKey, row.generation, row.pdfKey]),
    }),
  );
  return {
    answers,
    tabs,
    submittedAt,
    documents: attached,
    reference: applicationReference(user.userId),
    digest,
  };
}

// ---------------------------------------------------------------------------------------------
// The download URL: `/api/pdf/file?download=<grant>`, an HMAC over the tenant, the applicant, the
// stored file and an expiry. The route also requires the applicant's own session.

const DOWNLOAD_CONTEXT = 'application-pdf-download:v1:';

function downloadGrant(ctx: ApplicationPdfContext, user: Scope, pdfKey: string): string {
  const expires = ctx.config.now().getTime() + PDF_DOWNLOAD_TTL_MS;
  const body = Buffer.from(
    JSON.stringify({ t: user.tenantId, u: user.userId, k: pdfKey, e: expires }),
  ).toString('base64url');
  return `${body}.${hmac(serviceTokenKey(ctx.config), DOWNLOAD_CONTEXT + body)}`;
}

/** The stored file a grant names, when the grant is genuine, unexpired and the session's own. */
function grantedKey(ctx: ApplicationPdfContext, user: Scope, grant: unknown): string | null {
  if (typeof grant !== 'string' || grant.length > 2048) return null;
  const [body, signature, extra] = grant.split('.');
  if (!body || !signature || extra !== undefined) return null;
  if (!sameSecret(signature, hmac(serviceTokenKey(ctx.config), DOWNLOAD_CONTEXT + body)))
    return null;
  let payload: { t?: unknown; u?: unknown; k?: unknown; e?: unknown };
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof payload;
  } catch {
    return null;
  }
  if (payload.t !== user.tenantId || payload.u !== user.userId) return null;
  if (typeof payload.e !== 'number' || payload.e <= ctx.config.now().getTime()) return null;
  return typeof payload.k === 'string' ? payload.k : null;
}

function downloadUrl(ctx: ApplicationPdfContext, user: Scope, pdfKey: string): string {
  return `/api/pdf/file?${PDF_DOWNLOAD_PARAM}=${downloadGrant(ctx, user, pdfKey)}`;
}

// ---------------------------------------------------------------------------------------------
// Requests and status

const STATUS_MESSAGE = {
  UNPROCESSED: pdfMessages.unprocessed,
  IN_PROGRESS: pdfMessages.inProgress,
  COMPLETED: pdfMessages.completed,
  FAILED: pdfMessages.failed,
} as const;
type PdfStatus = keyof typeof STATUS_MESSAGE;

/**
 * Asks for an up-to-date PDF: when there is none, when its sources changed since it was made (or
 * asked for), or when the last try failed a minute or more ago, the row takes a new generation and a
 * job is queued; one
 * statement decides, so concurrent requests queue one job per change. Returns the row as it stands.
 */
export async function requestPdf(
  ctx: ApplicationPdfContext,
  user: Scope,
  definition: Definition,
): Promise<typeof applicationPdfs.$inferSelect> {
  const sources = await readSources(ctx, user, definition);
  const now = ctx.config.now();
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
  const [row] = await ctx.db.select().from(applicationPdfs).where(applicantRow(user));
  if (!row) throw new Error('application PDF row missing after upsert');
  return row;
}

/** `GET /api/pdf`: the download record (SPEC 3.4), asking for a fresh PDF when it is out of date. */
export async function pdfStatus(
  ctx: ApplicationPdfContext,
  user: Scope,
  definition: Definition,
): Promise<ApplicationPdfResponse> {
  const row = await requestPdf(ctx, user, definition);
  const status = row.status as PdfStatus;
  return {
    status,
    url: status === 'COMPLETED' && row.pdfKey ? downloadUrl(ctx, user, row.pdfKey) : null,
    message: STATUS_MESSAGE[status],
  };
}

/** `GET /api/pdf/file?download=`: the PDF's bytes and a file name, for the session's own applicant. */
export async function downloadPdf(
  ctx: ApplicationPdfContext,
  user: Scope,
  definition: Definition,
  grant: unknown,
): Promise<{ bytes: Buffer; fileName: string }> {
  const key = grantedKey(ctx, user, grant);
  const [row] = await ctx.db
    .select({ pdfKey: applicationPdfs.pdfKey })
    .from(applicationPdfs)
    .where(applicantRow(user));
  // Only the applicant's current PDF: a URL handed out before it was prepared again is expired.
  if (!key || !row?.pdfKey || key !== row.pdfKey) throw new HttpError(404, pdfMessages.linkExpired);
  const bytes = await ctx.storage.get(key);
  if (!bytes) throw new HttpError(404, pdfMessages.linkExpired);
  return { bytes, fileName: pdfFileName(definition) };
}

/** "Northfield College Undergraduate Application.pdf" → a plain ASCII file name. */
export function pdfFileName(definition: Definition): string {
  const base = definition.title
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9 _-]+/g, '')
    .trim()
    .replace(/\s+/g, '-');
  return `${base || 'application'}.pdf`;
}

// ---------------------------------------------------------------------------------------------
// The job

const pdfKeyPrefix = (user: Scope) => `application/${user.tenantId}/${user.userId}/`;

/** Where a prepared PDF is kept: random per preparation, under the tenant and the applicant. */
function newPdfKey(user: Scope): string {
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
    .where(and(applicantRow(payload), eq(applicationPdfs.generation, payload.generation)))
    .returning({ generation: applicationPdfs.generation });
  return updated.length > 0;
}

/** The file questions shown in the copy, in reading order (every add-another instance counted). */
function attachmentOrder(
  definition: Definition,
  answers: Record<string, unknown>,
  tabs: Record<string, string>,
  now: Date,
): string[] {
  const pages = visibleView(definition, answers, {
    addAnother: Object.fromEntries(addAnotherGroups(definition)),
    tabs,
    now,
  });
  return questionsOf(pages)
    .filter((view) => view.question.kind === 'file')
    .map((view) => view.key);
}

/** The converted documents the copy shows, in the order it shows them. */
export function copyAttachments(
  definition: Definition,
  sources: Sources,
  now: Date,
): Sources['documents'] {
  const order = attachmentOrder(
    definition,
    sources.answers,
    sources.tabs,
    sources.submittedAt ?? now,
  );
  return order.flatMap((key) => {
    const document = sources.documents.find((candidate) => candidate.questionKey === key);
    return document ? [document] : [];
  });
}

/**
 * The copy's HTML (the print set, SSN masked as the definition says), with `blankPages` framed empty
 * pages at the end for the attached documents' pages.
 */
export function copyHtml(
  definition: Definition,
  sources: Sources,
  now: Date,
  blankPages = 0,
): string {
  const printedAt = sources.submittedAt ?? now;
  return renderApplicationHtml({
    definition,
    answers: answersForCopy(definition, sources.answers),
    tabs: sources.tabs,
    documents: copyAttachments(definition, sources, now).map((document) => document.questionKey),
    now: printedAt,
    date: printDate(printedAt),
    submitted: sources.submittedAt ? printDate(sources.submittedAt) : undefined,
    reference: sources.reference,
    blankPages,
  });
}

const POINTS_PER_INCH = 72;

/**
 * Draws each page of an attached document on the next framed empty page of the copy, from `first`:
 * scaled down (never up) into the same margins as the application's pages, so the header and
 * footer printed with the page sit clear. Answers the index after the last page drawn.
 */
async function drawAttachedPages(
  output: PDFDocument,
  source: PDFDocument,
  first: number,
): Promise<number> {
  const marginX = PAGE_MARGIN_INCHES.horizontal * POINTS_PER_INCH;
  const marginY = PAGE_MARGIN_INCHES.vertical * POINTS_PER_INCH;
  const embedded = await output.embedPages(source.getPages());
  let index = first;
  for (const page of embedded) {
    const target = output.getPage(index);
    const { width, height } = target.getSize();
    const boxWidth = width - 2 * marginX;
    const boxHeight = height - 2 * marginY;
    const scale = Math.min(1, boxWidth / page.width, boxHeight / page.height);
    const drawn = { width: page.width * scale, height: page.height * scale };
    target.drawPage(page, {
      x: marginX + (boxWidth - drawn.width) / 2,
      y: height - marginY - drawn.height,
      ...drawn,
    });
    index += 1;
  }
  return index;
}

/**
 * Builds the PDF in one Chromium print (D114): the print set's HTML with one framed empty page per
 * page of the converted documents the copy shows, so the header and "Page N of M" count and cover
 * them; then each document's pages are drawn on those pages, in the order the copy shows them.
 */
export async function buildApplicationPdf(
  ctx: Pick<ApplicationPdfContext, 'printer' | 'storage'>,
  definition: Definition,
  sources: Sources,
  now: Date,
): Promise<Uint8Array> {
  const documents: PDFDocument[] = [];
  for (const document of copyAttachments(definition, sources, now)) {
    const bytes = await ctx.storage.get(document.pdfKey);
    if (!bytes) throw new Error(`converted document missing for ${document.questionKey}`);
    documents.push(await PDFDocument.load(bytes));
  }
  const attachedPages = documents.reduce((sum, document) => sum + document.getPageCount(), 0);
  const html = copyHtml(definition, sources, now, attachedPages);
  const output = await PDFDocument.load(await ctx.printer.htmlToPdf(html));
  let next = output.getPageCount() - attachedPages;
  if (next < 1)
    throw new Error(`copy printed ${output.getPageCount()} pages for ${attachedPages} attached`);
  for (const document of documents) next = await drawAttachedPages(output, document, next);
  const name = applicantNameOf(sources.answers);
  output.setTitle([definition.title, name].filter(Boolean).join(' – '));
  output.setSubject(definition.title);
  output.setCreator(definition.title);
  output.setProducer(definition.title);
  output.setCreationDate(now);
  output.setModificationDate(now);
  return output.save();
}

/** The `application-pdf` job kind. */
export function applicationPdfJob(ctx: ApplicationPdfContext) {
  return {
    maxAttempts: 2,
    async run(job: Job<PdfPayload>): Promise<void> {
      const payload = job.payload;
      const [row] = await ctx.db.select().from(applicationPdfs).where(applicantRow(payload));
      if (!row || row.generation !== payload.generation || row.status === 'COMPLETED') return;
      const definition = ctx.definitionOf(payload.tenantId);
      if (!definition) throw new Error(`no definition for tenant ${payload.tenantId}`);
      await settle(ctx, payload, { status: 'IN_PROGRESS', message: pdfMessages.inProgress });
      const now = ctx.config.now();
      const sources = await readSources(ctx, payload, definition);
      const pdf = await buildApplicationPdf(ctx, definition, sources, now);
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
