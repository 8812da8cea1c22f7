import { queryOptions } from '@tanstack/react-query';
import {
  applicationPdfResponse,
  isPdfPending,
  PDF_POLL_PENDING_MS,
  PDF_POLL_SETTLED_MS,
} from '#contract';
import { apiRequest } from '#src/api/client.ts';

/**
 * GET /api/pdf (SPEC 7.2): the PDF download record, polled every second while the PDF is being
 * prepared and every 10 minutes after that (SPEC 4.5). A failed read does not reach the error
 * boundary: the link shows the failure and the poll goes on (docs/decisions/ D55).
 */
export const applicationPdfQuery = queryOptions({
  queryKey: ['application-pdf'] as const,
  queryFn: () => apiRequest('GET', '/api/pdf', applicationPdfResponse),
  refetchInterval: (query) =>
    isPdfPending(query.state.data?.status) && query.state.status !== 'error'
      ? PDF_POLL_PENDING_MS
      : PDF_POLL_SETTLED_MS,
  throwOnError: false,
});
