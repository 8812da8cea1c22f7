import { useMutation } from '@tanstack/react-query';
import { messageResponse } from '#contract';
import { apiRequest } from '#src/api/client.ts';

/** POST /public/forgot-password (SPEC 7.2): answers { message }. */
export function forgotPasswordRequest(body: { username: string }) {
  return apiRequest('POST', '/public/forgot-password', messageResponse, body);
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPasswordRequest });
}
