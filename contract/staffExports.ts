/**
 * What an admin takes out of the console besides the CSV itself: the CSV's chosen columns (D168).
 * Apart from `staff.ts` like the rest of the console's calls: not re-exported from
 * `contract/index.ts`, so none of it reaches the applicant's first page.
 */
import * as z from 'zod/mini';

export const exportMessages = {
  badColumns: 'The column list is not valid.',
  unknownColumn: 'The column list names a column the form does not have.',
  columnsSaved: 'The CSV columns have been saved for everyone in the office.',
  columnsReset: 'The CSV holds every column again.',
} as const;

/** An answer key as the definitions write them. */
const answerKey = z
  .string(exportMessages.badColumns)
  .check(z.regex(/^[A-Za-z0-9_.-]{1,100}$/, exportMessages.badColumns));

/**
 * PUT /staff/api/export-columns (admins): the answer columns the CSV holds, by key. No longer a
 * list than the form has columns: the route's body limit counts them (server/staff/exportRoutes.ts).
 */
export const exportColumnsBody = z.object({
  columns: z.array(answerKey, exportMessages.badColumns),
});

/**
 * GET /staff/api/export-columns (admins): every answer column of the form, in its order, headed as
 * in the CSV, and the saved choice (null: every column). The first columns (who, status, times)
 * are always in the CSV.
 */
export const exportColumnsResponse = z.object({
  columns: z.array(z.object({ key: z.string(), label: z.string() })),
  chosen: z.nullable(z.array(z.string())),
});
export type ExportColumns = z.output<typeof exportColumnsResponse>;

/**
 * The most applications one PDF download holds (D169, D176): an office's whole filtered list on a
 * deadline day. The ZIP is streamed, so memory does not bound it; the hours of printing do.
 */
export const PDF_BUNDLE_LIMIT = 5000;

export const bundleMessages = {
  tooMany: (count: number) =>
    `These filters find ${count.toLocaleString('en-US')} applications; one PDF download holds at most ${PDF_BUNDLE_LIMIT.toLocaleString('en-US')}. Narrow the filters and try again.`,
  empty: 'These filters find no application to download.',
  noSuchBundle: 'There is no such PDF download.',
  notReady: 'The PDFs are still being prepared. Try again when the download is ready.',
} as const;

export const PDF_BUNDLE_STATES = ['building', 'ready', 'failed'] as const;

/** POST /staff/api/pdf-bundles (202) and GET /staff/api/pdf-bundles/{id}: a ZIP's progress. */
export const pdfBundleStatus = z.object({
  id: z.string(),
  state: z.enum(PDF_BUNDLE_STATES),
  /** PDFs added so far, of `total`. */
  done: z.number(),
  total: z.number(),
  file_name: z.string(),
});
export type PdfBundleStatus = z.output<typeof pdfBundleStatus>;
export const pdfBundleParams = z.object({ id: z.uuid(bundleMessages.noSuchBundle) });
