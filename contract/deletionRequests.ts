/**
 * The console's deletion requests (D152, D164), apart from `staff.ts` like the rest of the console's
 * calls: not re-exported from `contract/index.ts`, so none of it reaches the applicant's first page.
 */
import * as z from 'zod/mini';

/** How many completed deletion requests the console lists (the newest). */
export const COMPLETED_DELETIONS_SHOWN = 100;

/**
 * GET /staff/api/deletion-requests (admins, D152): the requests waiting, newest first, and the
 * newest completed ones, which keep only the reference: the account and its name are gone.
 */
export const deletionRequestList = z.object({
  /** How long the institution keeps a submitted application (its institution file, D153). */
  submitted_kept_years: z.number(),
  requests: z.array(
    z.object({
      applicant_id: z.string(),
      reference: z.string(),
      /** "First Middle Last" as the applications list shows it; empty before any name is given. */
      name: z.string(),
      email: z.string(),
      requested_at: z.string(),
      submitted_at: z.nullable(z.string()),
    }),
  ),
  completed: z.array(
    z.object({
      reference: z.string(),
      requested_at: z.nullable(z.string()),
      completed_at: z.string(),
      /** The admin's address, as the audit names them. */
      completed_by: z.string(),
    }),
  ),
});
export type DeletionRequestList = z.output<typeof deletionRequestList>;
