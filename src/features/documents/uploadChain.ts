/**
 * SPEC 4.4 steps 1–3 for one file, free of React: the presigned url (beside a save of the unsaved
 * answers), the upload, the conversion request. And how a failure reads to the applicant.
 */
import { GENERIC_ERROR_MESSAGE, SUBMITTED_CODE } from '#contract';
import { applicationDefinition } from '../../tenant/tenantData';
import { labelOf } from '#runtime';
import { ServerError } from '../../api/client';
import { postConversionRequest } from './api/conversion';
import { presignedUrlRequest } from './api/presignedUrl';
import { uploadFileRequest } from './api/uploadFile';

export async function sendFile(
  key: string,
  file: File,
  saveAnswers: () => Promise<unknown>,
): Promise<void> {
  const [presigned] = await Promise.all([presignedUrlRequest(key), saveAnswers()]);
  await uploadFileRequest(presigned, file);
  await postConversionRequest(key, { file_key: presigned.fields.key, file_name: file.name });
}

/** The label the applicant sees for a file question (its key is internal). */
export const questionLabel = (key: string): string => labelOf(applicationDefinition, key);

/** A server's refusal says why; anything else is SPEC 7.1's generic message. */
export const messageOf = (error: unknown): string =>
  error instanceof ServerError ? error.message : GENERIC_ERROR_MESSAGE;

/** The server refused because the application is submitted: it keeps its files as they are (D69). */
export const isSubmittedRefusal = (error: unknown): boolean =>
  error instanceof ServerError && error.code === SUBMITTED_CODE;
