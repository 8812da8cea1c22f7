import { tmpAnswersResponse } from '#contract';
import { apiRequest } from '#src/api/client.ts';

/** GET /public/tmp?token= (SPEC 7.2): an anonymous visitor's temporary answers. */
export function tmpAnswersRequest(token: string) {
  return apiRequest('GET', `/public/tmp?token=${encodeURIComponent(token)}`, tmpAnswersResponse);
}
