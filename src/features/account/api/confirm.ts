import { useMutation } from '@tanstack/react-query';
import { messageResponse, type ConfirmBody } from '#contract';
import { apiRequest } from '#src/api/client.ts';

/** POST /public/confirm (SPEC 7.2): answers { message }. */
export function confirmRequest(body: ConfirmBody) {
  return apiRequest('POST', '/public/confirm', messageResponse, body);
}

export function useConfirm() {
  return useMutation({ mutationFn: confirmRequest });
}
