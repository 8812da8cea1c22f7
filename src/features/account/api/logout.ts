import { useMutation } from '@tanstack/react-query';
import { messageResponse } from '../../../../contract';
import { apiRequest, UnauthorizedError } from '../../../api/client';

/**
 * GET /api/logout (SPEC 7.2); a failure goes to the error boundary (SPEC 8), except a 401: the
 * session is already gone, which is what logging out wanted. The caller ends the session in the
 * tab (`sessionEnded`) once it settles.
 */
export function logoutRequest() {
  return apiRequest('GET', '/api/logout', messageResponse);
}

export function useLogout() {
  return useMutation({
    mutationFn: logoutRequest,
    throwOnError: (error) => !(error instanceof UnauthorizedError),
  });
}
