import { ignoredResponse } from '../../../../contract';
import { apiRequest } from '../../../api/client';

/** PUT /api/last-page (SPEC 2.2). */
export function putLastPageRequest(lastPage: string) {
  return apiRequest('PUT', '/api/last-page', ignoredResponse, { last_page: lastPage });
}
