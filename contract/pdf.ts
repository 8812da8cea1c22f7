/**
 * The application PDF (SPEC 3.4, 4.5, 7.2 `GET /api/pdf`): the download record and its polling
 * constants, shared by the app and the server. Written with `zod/mini` (docs/decisions/ D29).
 */
import * as z from 'zod/mini';
import { conversionStatus, PENDING_STATUSES, type ConversionStatus } from './documents';

/** SPEC 9, Polling: the PDF status is polled every second until it is ready… */
export const PDF_POLL_PENDING_MS = 1000;
/** …and every 10 minutes after that. */
export const PDF_POLL_SETTLED_MS = 600_000;

/** `GET /api/pdf`: the PDF download record (SPEC 3.4); `url` is set once the status is COMPLETED. */
export const applicationPdfResponse = z.object({
  status: conversionStatus,
  url: z.nullable(z.string()),
  message: z.nullable(z.string()),
});
export type ApplicationPdfResponse = z.output<typeof applicationPdfResponse>;

/** The PDF is still being prepared: the link is disabled and the status polled every second. */
export function isPdfPending(status: ConversionStatus | undefined): boolean {
  return status !== undefined && PENDING_STATUSES.includes(status);
}

/** The query parameter of the download URL that carries its short-lived grant. */
export const PDF_DOWNLOAD_PARAM = 'download';
