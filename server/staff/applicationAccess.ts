/**
 * One application as staff reach it: the service view's data (the print set draws it, as in the
 * PDF), its converted documents and the application PDF (its service links: `serviceLinks.ts`).
 * Every read is written to the audit log by the routes.
 */
import { and, eq } from 'drizzle-orm';
import { convertedFileName, staffMessages, type StaffApplication } from '../../contract/staff';
import type { WebStatus } from '../../contract/webStatus';
import { applications, staffListing, users } from '../db/schema';
import { HttpError } from '../errors';
import {
  applicationReference,
  copyFileName,
  requestPdf,
  type ApplicationPdfContext,
} from '../applicationPdf';
import type { PublishedDefinitions, ServiceContext } from '../http/context';
import { convertedDocuments } from '../documents';
import { serviceViewData } from '../serviceView';

export interface Applicant {
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

/** Whose and what an application is: the list's row of it, and its reference. */
async function identityOf(ctx: Pick<ServiceContext, 'db'>, applicant: Applicant) {
  const [row] = await ctx.db
    .select({
      name: staffListing.name,
      status: staffListing.status,
      submittedAt: staffListing.submittedAt,
    })
    .from(staffListing)
    .where(
      and(eq(staffListing.tenantId, applicant.tenantId), eq(staffListing.userId, applicant.userId)),
    );
  if (!row) throw noSuchApplication();
  return {
    name: row.name,
    status: row.status as WebStatus,
    submitted_at: row.submittedAt?.toISOString() ?? null,
    reference: applicationReference(applicant.userId),
  };
}

/** The read-only view's data (the service view's, masked as in every copy), and whose it is. */
export async function readApplication(
  ctx: ServiceContext,
  applicant: Applicant,
  definitions: PublishedDefinitions,
): Promise<StaffApplication> {
  const data = await serviceViewData(ctx, applicant, definitions).catch(() => {
    throw noSuchApplication();
  });
  const preferred = data.answer.preferred_name;
  return {
    ...data,
    email: applicant.email,
    ...(await identityOf(ctx, applicant)),
    preferred_name: typeof preferred === 'string' && preferred.trim() ? preferred.trim() : null,
  };
}

/** A converted document of the applicant (PDF), by question key. */
export async function readDocument(ctx: ApplicationPdfContext, applicant: Applicant, key: string) {
  const attached = await convertedDocuments(ctx, applicant);
  const found = attached.find((row) => row.questionKey === key);
  const bytes = found ? await ctx.storage.get(found.pdfKey) : null;
  if (!found || !bytes) throw new HttpError(404, staffMessages.noSuchDocument);
  return { bytes, fileName: convertedFileName(found.fileName) };
}

/** The application PDF when it is ready; otherwise it is asked for and `null` answers "not yet". */
export async function readApplicationPdf(
  ctx: ApplicationPdfContext,
  applicant: Applicant,
  definitions: PublishedDefinitions,
) {
  const row = await requestPdf(ctx, applicant, definitions.definitionAt);
  if (row.status !== 'COMPLETED' || !row.pdfKey) return null;
  const bytes = await ctx.storage.get(row.pdfKey);
  if (!bytes) return null;
  return { bytes, fileName: await copyFileName(ctx, applicant) };
}
