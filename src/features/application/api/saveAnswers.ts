import { saveAnswersResponse } from '#contract';
import type { AnswersBody } from '#contract';
import { apiRequest } from '#src/api/client.ts';

export interface SaveAnswersCall {
  readonly answers: AnswersBody;
  /** The answers' version this tab last saw (SECURITY.md REQ-R-2), sent as If-Match. */
  readonly baseVersion?: number;
  /** Finish even if the page is being unloaded. */
  readonly keepalive?: boolean;
}

/** PUT /api/answer (SPEC 7.2): answers { message, version }. */
export function saveAnswersRequest({ answers, baseVersion, keepalive }: SaveAnswersCall) {
  return apiRequest('PUT', '/api/answer', saveAnswersResponse, answers, {
    headers: baseVersion === undefined ? {} : { 'if-match': `"${baseVersion}"` },
    keepalive,
  });
}

/**
 * Through the mutation cache, so a 401 reaches the central handler (SPEC 2.2). Sent even when the
 * browser reports being offline (`networkMode: 'always'`): the autosaver must see the failure to
 * show "Not saved — retrying" and back off, instead of a save paused without a word.
 */
export const saveAnswersMutation = {
  mutationFn: saveAnswersRequest,
  networkMode: 'always',
} as const;
