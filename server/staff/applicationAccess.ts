/**
 * One application as staff reach it: the service view's data (the print set draws it, as in the
 * PDF), its converted documents, the application PDF, and the service links minted for it. Every
 * read is written to the audit log by the routes.
 */
import { and, desc, eq } from 'drizzle-orm';
import { staffMessages } from '../../contract/staff';
import type { Definition } from '../../runtime';
import { applications, staffServiceLinks, staffUsers, users } from '../db/schema';
import { HttpError } from '../errors';
import { requestPdf, pdfFileName, type ApplicationPdfContext } from '../services/applicationPdf';
import type { ServiceContext } from '../services/context';
import { convertedDocuments } from '../services/documents';
import { mintServiceToken, revokeServiceToken, serviceViewData } from '../services/serviceTokens';
import type { StaffSession } from './sessions';

interface Applicant {
  readonly tenantId: string;
  readonly userId: string;
  readonly email: string;
}

const noSuchApplication = () => new HttpError(404, staffMessages.noSuchApplication);

/** The applicant of an id in the staff member's tenant, with an application row; 404 otherwise. */
export async function applicantOf(
  ctx: Pick<ServiceContext, 'db'>,
  tenantId: string,
  userId: string,
): Promise<Applicant> {
  const [row] = await ctx.db
    .select({ email: users.email })
    .from(applications)
    .innerJoin(users, eq(users.id, applications.userId))
    .where(and(eq(applications.tenantId, tenantId), eq(applications.userId, userId)));
  if (!row) throw noSuchApplication();
  return { tenantId, userId, email: row.email };
}

/** The read-only view's data (the service view's, masked as in every copy), and the address. */
export async function readApplication(
  ctx: ServiceContext,
  applicant: Applicant,
  definition: Definition,
) {
  const data = await serviceViewData(ctx, applicant, definition).catch(() => {
    throw noSuchApplication();
  });
  return { ...data, email: applicant.email };
}

/** A converted document of the applicant (PDF), by question key. */
export async function readDocument(ctx: ApplicationPdfContext, applicant: Applicant, key: string) {
  const attached = await convertedDocuments(ctx, applicant);
  const found = attached.find((row) => row.questionKey === key);
  const bytes = found ? await ctx.storage.get(found.pdfKey) : null;
  if (!found || !bytes) throw new HttpError(404, staffMessages.noSuchDocument);
  return { bytes, fileName: `${found.fileName.replace(/\.[^.]*$/, '')}.pdf` };
}

/** The application PDF when it is ready; otherwise it is asked for and `null` answers "not yet". */
export async function readApplicationPdf(
  ctx: ApplicationPdfContext,
  applicant: Applicant,
  definition: Definition,
) {
  const row = await requestPdf(ctx, applicant, definition);
  if (row.status !== 'COMPLETED' || !row.pdfKey) return null;
  const bytes = await ctx.storage.get(row.pdfKey);
  return bytes ? { bytes, fileName: pdfFileName(definition) } : null;
}

export async function mintLink(ctx: ServiceContext, session: StaffSession, applicant: Applicant) {
  const minted = await mintServiceToken(ctx, applicant.tenantId, applicant.email, session.email);
  await ctx.db.insert(staffServiceLinks).values({
    tenantId: applicant.tenantId,
    tokenId: minted.id,
    userId: applicant.userId,
    staffUserId: session.staffUserId,
    expiresAt: new Date(minted.expires_at),
    createdAt: ctx.config.now(),
  });
  return { id: minted.id, url: minted.url, expires_at: minted.expires_at };
}

export async function listLinks(ctx: ServiceContext, applicant: Applicant) {
  const rows = await ctx.db
    .select({
      id: staffServiceLinks.tokenId,
      expiresAt: staffServiceLinks.expiresAt,
      revokedAt: staffServiceLinks.revokedAt,
      createdAt: staffServiceLinks.createdAt,
      createdBy: staffUsers.email,
    })
    .from(staffServiceLinks)
    .leftJoin(staffUsers, eq(staffUsers.id, staffServiceLinks.staffUserId))
    .where(
      and(
        eq(staffServiceLinks.tenantId, applicant.tenantId),
        eq(staffServiceLinks.userId, applicant.userId),
      ),
    )
    .orderBy(desc(staffServiceLinks.createdAt));
  return rows.map((row) => ({
    id: row.id,
    expires_at: row.expiresAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy,
  }));
}

export async function revokeLink(ctx: ServiceContext, applicant: Applicant, tokenId: string) {
  const [row] = await ctx.db
    .update(staffServiceLinks)
    .set({ revokedAt: ctx.config.now() })
    .where(
      and(
        eq(staffServiceLinks.tenantId, applicant.tenantId),
        eq(staffServiceLinks.userId, applicant.userId),
        eq(staffServiceLinks.tokenId, tokenId),
      ),
    )
    .returning({ id: staffServiceLinks.tokenId });
  if (!row) throw new HttpError(404, staffMessages.noSuchApplication);
  await revokeServiceToken(ctx, applicant.tenantId, tokenId);
}
