import { useMutation } from '@tanstack/react-query';
import { messageResponse, type LoginBody } from '#contract';
import { apiRequest } from '#src/api/client.ts';

/** POST /public/login (SPEC 7.2): answers { message }. */
export function loginRequest(body: LoginBody) {
  return apiRequest('POST', '/public/login', messageResponse, body);
}

export function useLogin() {
  return useMutation({ mutationFn: loginRequest });
}
