import { ignoredResponse } from '../../../../contract';
import { useMutation } from '@tanstack/react-query';
import type { WebStatus } from '../../../../runtime';
import { apiRequest } from '../../../api/client';

/** POST /api/web-status (SPEC 4.1); the only call retried, up to 2 times. */
export function postWebStatusRequest(webStatus: WebStatus) {
  return apiRequest('POST', '/api/web-status', ignoredResponse, { web_status: webStatus });
}

export function usePostWebStatus() {
  return useMutation({ mutationFn: postWebStatusRequest, retry: 2 });
}
