/** What the parts of the application PDF share: their context, the applicant's row and the job's payload. */
import { and, eq } from 'drizzle-orm';
import { applicationPdfs } from '../db/schema';
import type { Applicant } from '../http/context';
import type { DefinitionAt } from '../tenant';
import type { DocumentsContext } from '../documents';

export const APPLICATION_PDF_JOB = 'application-pdf';

export interface ApplicationPdfContext extends DocumentsContext {
  /** A tenant's definitions by version (jobs run outside any request). */
  readonly definitionsOf: (tenantId: string) => DefinitionAt | undefined;
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
