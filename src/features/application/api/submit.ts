import { messageResponse } from '#contract';
import { apiRequest } from '#src/api/client.ts';

/** POST /api/submit (SPEC 4.1). */
export function submitRequest() {
  return apiRequest('POST', '/api/submit', messageResponse);
}
