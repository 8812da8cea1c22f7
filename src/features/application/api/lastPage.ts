import { ignoredResponse } from '../../../../contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../api/client';

/** PUT /api/last-page (SPEC 2.2). */
export function putLastPageRequest(lastPage: string) {
  return apiRequest('PUT', '/api/last-page', ignoredResponse, { last_page: lastPage });
}

export function usePutLastPage() {
  return useMutation({ mutationFn: putLastPageRequest });
}
