import { useMutation } from '@tanstack/react-query';
import { messageResponse } from '#contract';
import { apiRequest, UnauthorizedError } from '#src/api/client.ts';

/**
 * GET /api/logout (SPEC 7.2), or with `everywhere` POST /api/logout/everywhere, which ends every
 * session of the account (D142); a failure goes to the error boundary (SPEC 8), except a 401: the
 * session is already gone, which is what logging out wanted. The caller ends the session in the
 * tab (`sessionEnded`) once it settles.
 */
export function logoutRequest(everywhere = false) {
  return everywhere
    ? apiRequest('POST', '/api/logout/everywhere', messageResponse, {})
    : apiRequest('GET', '/api/logout', messageResponse);
}

export function useLogout() {
  return useMutation({
    mutationFn: ({ everywhere }: { everywhere: boolean }) => logoutRequest(everywhere),
    throwOnError: (error) => !(error instanceof UnauthorizedError),
  });
}
