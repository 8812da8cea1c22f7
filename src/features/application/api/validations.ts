import { ignoredResponse } from '#contract';
import { apiRequest } from '#src/api/client.ts';

/** POST /api/validations (SPEC 5.1): only while validating, only when there are errors. */
export function postValidationsRequest(errors: Record<string, readonly string[]>) {
  return apiRequest('POST', '/api/validations', ignoredResponse, errors);
}
