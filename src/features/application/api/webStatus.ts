import { ignoredResponse } from '#contract';
import type { WebStatus } from '#contract';
import { apiRequest } from '#src/api/client.ts';

/** POST /api/web-status (SPEC 4.1); the only call retried, up to 2 times. */
export function postWebStatusRequest(webStatus: WebStatus) {
  return apiRequest('POST', '/api/web-status', ignoredResponse, { web_status: webStatus });
}

export const postWebStatusMutation = { mutationFn: postWebStatusRequest, retry: 2 };
