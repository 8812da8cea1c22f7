/** What the parts of the application PDF share: their context, the applicant's row and the job's payload. */
import { and, eq } from 'drizzle-orm';
import type { Definition } from '../../../runtime';
import { applicationPdfs } from '../../db/schema';
import type { Applicant } from '../context';
import type { DocumentsContext } from '../documents';

export const APPLICATION_PDF_JOB = 'application-pdf';

export interface ApplicationPdfContext extends DocumentsContext {
  /** The definition of a tenant (jobs run outside any request). */
  readonly definitionOf: (tenantId: string) => Definition | undefined;
}

/** What a request hands the job: the applicant and the generation it asked for. */
export interface PdfPayload extends Record<string, unknown> {
  tenantId: string;
  userId: string;
  generation: number;
}

/** The applicant's one `application_pdfs` row. */
export const pdfRowOf = (user: Applicant) =>
  and(eq(applicationPdfs.tenantId, user.tenantId), eq(applicationPdfs.userId, user.userId));
