import { useMutation } from '@tanstack/react-query';
import { messageResponse, type ResetBody } from '#contract';
import { apiRequest } from '#src/api/client.ts';

/** POST /public/reset-password (SPEC 7.2): answers { message }. */
export function resetPasswordRequest(body: ResetBody) {
  return apiRequest('POST', '/public/reset-password', messageResponse, body);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPasswordRequest });
}
