import { useMutation } from '@tanstack/react-query';
import { messageResponse } from '#contract';
import { apiRequest } from '#src/api/client.ts';

/** POST /public/resend-confirm (SPEC 7.2): answers { message }. */
export function resendConfirmRequest(body: { username: string }) {
  return apiRequest('POST', '/public/resend-confirm', messageResponse, body);
}

export function useResendConfirm() {
  return useMutation({ mutationFn: resendConfirmRequest });
}
