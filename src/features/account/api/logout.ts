import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '../../../../contract';
import { apiRequest } from '../../../api/client';

/** GET /api/logout (SPEC 7.2); a failure goes to the error boundary (SPEC 8). */
export function logoutRequest() {
  return apiRequest('GET', '/api/logout', messageResponse);
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logoutRequest,
    throwOnError: true,
    onSettled: () => queryClient.clear(),
  });
}
