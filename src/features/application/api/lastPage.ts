import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../api/client';

/** PUT /api/last-page (SPEC 2.2). */
export function putLastPageRequest(lastPage: string) {
  return apiRequest('PUT', '/api/last-page', z.unknown(), { last_page: lastPage });
}

export function usePutLastPage() {
  return useMutation({ mutationFn: putLastPageRequest });
}
