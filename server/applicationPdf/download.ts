/**
 * The download record and the file behind it. The URL is `/api/pdf/file?download=<grant>`, an HMAC
 * over the tenant, the applicant, the stored file and an expiry; the route also requires the
 * applicant's own session.
 */
import { and, eq, sql } from 'drizzle-orm';
import {
  applicationReference,
  pdfMessages,
  type ApplicationPdfResponse,
  PDF_DOWNLOAD_PARAM,
} from '#contract';
import { applicationPdfs, applications } from '../db/schema';
import { HttpError } from '../errors';
import { hmac, sameSecret } from '../secrets';
import type { Applicant } from '../http/context';
import type { DefinitionAt } from '../tenant';
import { serviceTokenKey } from '../crypto/serviceKey';
import { pdfRowOf, type ApplicationPdfContext } from './context';
import { requestPdf } from './request';

/** How long a download URL works (longer than the 10-minute poll, so a shown link still opens). */
const PDF_DOWNLOAD_TTL_MS = 15 * 60_000;

const DOWNLOAD_CONTEXT = 'application-pdf-download:v1:';

function downloadGrant(ctx: ApplicationPdfContext, user: Applicant, pdfKey: string): string {
  const expires = ctx.config.now().getTime() + PDF_DOWNLOAD_TTL_MS;
  const body = Buffer.from(
    JSON.stringify({ t: user.tenantId, u: user.userId, k: pdfKey, e: expires }),
  ).toString('base64url');
  return `${body}.${hmac(serviceTokenKey(ctx.config), DOWNLOAD_CONTEXT + body)}`;
}

/** The stored file a grant names, when the grant is genuine, unexpired and the session's own. */
function grantedKey(ctx: ApplicationPdfContext, user: Applicant, grant: unknown): string | null {
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

function downloadUrl(ctx: ApplicationPdfContext, user: Applicant, pdfKey: string): string {
  return `/api/pdf/file?${PDF_DOWNLOAD_PARAM}=${downloadGrant(ctx, user, pdfKey)}`;
}

const STATUS_MESSAGE = {
  UNPROCESSED: pdfMessages.unprocessed,
  IN_PROGRESS: pdfMessages.inProgress,
  COMPLETED: pdfMessages.completed,
  FAILED: pdfMessages.failed,
} as const;
type PdfStatus = keyof typeof STATUS_MESSAGE;

/** `GET /api/pdf`: the download record (SPEC 3.4), asking for a fresh PDF when it is out of date. */
export async function pdfStatus(
  ctx: ApplicationPdfContext,
  user: Applicant,
  definitions: DefinitionAt,
): Promise<ApplicationPdfResponse> {
  const row = await requestPdf(ctx, user, definitions);
  const status = row.status as PdfStatus;
  return {
    status,
    url: status === 'COMPLETED' && row.pdfKey ? downloadUrl(ctx, user, row.pdfKey) : null,
    message: STATUS_MESSAGE[status],
  };
}

/**
 * `GET /api/pdf/file?download=`: the PDF's bytes and its file name, for the session's own
 * applicant: named for them as the staff copy is (`copyFileName`, D197).
 */
export async function downloadPdf(
  ctx: ApplicationPdfContext,
  user: Applicant,
  grant: unknown,
): Promise<{ bytes: Buffer; fileName: string }> {
  const key = grantedKey(ctx, user, grant);
  const [row] = await ctx.db
    .select({ pdfKey: applicationPdfs.pdfKey })
    .from(applicationPdfs)
    .where(pdfRowOf(user));
  // Only the applicant's current PDF: a URL handed out before it was prepared again is expired.
  if (!key || !row?.pdfKey || key !== row.pdfKey) throw new HttpError(404, pdfMessages.linkExpired);
  const bytes = await ctx.storage.get(key);
  if (!bytes) throw new HttpError(404, pdfMessages.linkExpired);
  return { bytes, fileName: await copyFileName(ctx, user) };
}

/**
 * The copy's file name, the applicant's download and the staff's alike (D147, D197):
 * "Lopez-Avery-4E4D-49A3.pdf", from the names as answered now.
 */
export async function copyFileName(
  ctx: Pick<ApplicationPdfContext, 'db'>,
  user: Applicant,
): Promise<string> {
  const [row] = await ctx.db
    .select({
      last: sql<unknown>`${applications.answers} -> 'last_name'`,
      first: sql<unknown>`${applications.answers} -> 'first_name'`,
    })
    .from(applications)
    .where(and(eq(applications.tenantId, user.tenantId), eq(applications.userId, user.userId)));
  return personalPdfFileName({
    last: row?.last,
    first: row?.first,
    reference: applicationReference(user.userId),
  });
}

/** Text as plain ASCII letters, digits and hyphens: "Gonzalez-Whitfield" from "González Whitfield". */
const asciiPart = (value: unknown) =>
  (typeof value === 'string' ? value : '')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9 -]+/g, '')
    .trim()
    .replace(/[\s-]+/g, '-');

/** A copy named for its applicant: "Gonzalez-Whitfield-Maria-D9EE-83E7.pdf" (missing names left out). */
export function personalPdfFileName(of: { last: unknown; first: unknown; reference: string }) {
  return `${[asciiPart(of.last), asciiPart(of.first), of.reference].filter(Boolean).join('-')}.pdf`;
}
