import { queryOptions } from '@tanstack/react-query';
import {
  CONVERSION_POLL_MS,
  DOC_CONVERSION_CACHE,
  PENDING_STATUSES,
  conversionResponse,
  ignoredResponse,
  type ConversionBody,
  type ConversionResponse,
} from '#contract';
import { apiRequest } from '#src/api/client.ts';

const path = (questionKey: string) => `/api/pdf/document-answer/${encodeURIComponent(questionKey)}`;

export const conversionKey = (questionKey: string) => [DOC_CONVERSION_CACHE, questionKey] as const;

export const isPending = (data: ConversionResponse | undefined): boolean =>
  data !== undefined && PENDING_STATUSES.includes(data.status);

/**
 * GET /api/pdf/document-answer/{key}, cached as "doc-conversion" (SPEC 7.2): polled every 2 s while
 * the conversion is unprocessed or in progress (SPEC 4.4 step 4), then left alone.
 */
export const conversionQuery = (questionKey: string) =>
  queryOptions({
    queryKey: conversionKey(questionKey),
    queryFn: () => apiRequest('GET', path(questionKey), conversionResponse),
    refetchInterval: (query) => (isPending(query.state.data) ? CONVERSION_POLL_MS : false),
  });

/** POST /api/pdf/document-answer/{key} { file_key, file_name }: queue the conversion. */
export function postConversionRequest(questionKey: string, body: ConversionBody): Promise<unknown> {
  return apiRequest('POST', path(questionKey), ignoredResponse, body);
}

/** DELETE /api/pdf/document-answer/{key}. */
export function deleteConversionRequest(questionKey: string): Promise<unknown> {
  return apiRequest('DELETE', path(questionKey), ignoredResponse);
}
