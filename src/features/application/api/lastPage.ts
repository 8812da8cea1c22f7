import { ignoredResponse } from '#contract';
import { apiRequest } from '#src/api/client.ts';

/** PUT /api/last-page (SPEC 2.2). */
export function putLastPageRequest(lastPage: string) {
  return apiRequest('PUT', '/api/last-page', ignoredResponse, { last_page: lastPage });
}
