import { presignedUrlResponse, type PresignedUrlResponse } from '#contract';
import { apiRequest } from '#src/api/client.ts';

/** POST /api/presigned-url { answer_key }: where and with which fields to post the file (SPEC 4.4). */
export function presignedUrlRequest(answerKey: string): Promise<PresignedUrlResponse> {
  return apiRequest('POST', '/api/presigned-url', presignedUrlResponse, { answer_key: answerKey });
}
