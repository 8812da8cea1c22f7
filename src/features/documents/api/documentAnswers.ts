import { queryOptions } from '@tanstack/react-query';
import { DOCUMENT_ANSWER_CACHE, documentAnswersResponse, ignoredResponse } from '#contract';
import { apiRequest } from '#src/api/client.ts';

/** GET /api/document-answer, cached as "document-answer" (SPEC 7.2): question key → file. */
export const documentAnswersQuery = queryOptions({
  queryKey: [DOCUMENT_ANSWER_CACHE] as const,
  queryFn: () => apiRequest('GET', '/api/document-answer', documentAnswersResponse),
});

/** DELETE /api/document-answer/{key}. */
export function deleteDocumentAnswerRequest(questionKey: string): Promise<unknown> {
  return apiRequest(
    'DELETE',
    `/api/document-answer/${encodeURIComponent(questionKey)}`,
    ignoredResponse,
  );
}
