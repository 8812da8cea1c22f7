import { useMutation } from '@tanstack/react-query';
import { messageResponse, type SignupBody } from '#contract';
import { apiRequest } from '#src/api/client.ts';

/** POST /public/signup (SPEC 7.2): answers { message }. */
export function signupRequest(body: SignupBody) {
  return apiRequest('POST', '/public/signup', messageResponse, body);
}

export function useSignup() {
  return useMutation({ mutationFn: signupRequest });
}
