/**
 * The applicant's documents whose conversion completed: only these are document answers. A query
 * condition on the documents table, here below the slices that read it (the application's summary,
 * the documents, the application PDF), so none imports another for it (D204).
 */
import { and, eq } from 'drizzle-orm';
import { documents } from './schema';

export const answeredOf = (user: { readonly tenantId: string; readonly userId: string }) =>
  and(
    eq(documents.tenantId, user.tenantId),
    eq(documents.userId, user.userId),
    eq(documents.answered, true),
  );
