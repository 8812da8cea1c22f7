/**
 * Documents (SPEC 3.4, 4.4, 5.6, 7.2): the presigned upload, the document answers and the conversion
 * status, shared by the app and the server. Written with `zod/mini` (docs/decisions/ D29).
 */
import * as z from 'zod/mini';
import { documentMessages } from './messages';

/** SPEC 9, Upload. */
export const MAX_FILE_BYTES = 1_048_576;
export const MAX_FILE_NAME_LENGTH = 32;
export const ALLOWED_FILE_EXTENSIONS = ['.png', '.jpeg', '.jpg', '.pdf', '.docx'] as const;
/** SPEC 9, Polling: the conversion status is polled every 2 s while it is unprocessed or in progress. */
export const CONVERSION_POLL_MS = 2000;

/** SPEC 3.4: the statuses of a conversion (and of the application PDF). */
export const conversionStatus = z.enum([
  'UNPROCESSED',
  'IN_PROGRESS',
  'COMPLETED',
  'NOT_ANSWERED',
  'FAILED',
]);
export type ConversionStatus = z.output<typeof conversionStatus>;
/** Statuses that keep the poll going (SPEC 4.4 step 4) and refuse a tab switch (SPEC 4.6). */
export const PENDING_STATUSES: readonly ConversionStatus[] = ['UNPROCESSED', 'IN_PROGRESS'];

/** A file as the browser describes it: name and size (the type is decided by its bytes later). */
export interface FileFacts {
  readonly name: string;
  readonly size: number;
}

/** Characters a file name may not carry: path separators, control and bidirectional-override characters. */
// eslint-disable-next-line no-control-regex
const FORBIDDEN_NAME_CHARACTERS = /[/\\\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;

/**
 * SPEC 5.6, in the order the app shows them: the first failing check's message, or null when the file
 * may be uploaded. The app runs it before any upload; the server runs it again on the file name and the
 * stored size. `count` is the number of files chosen (only one is accepted).
 */
export function fileProblem(file: FileFacts, count = 1): string | null {
  if (count !== 1) return documentMessages.oneFile;
  if (file.size > MAX_FILE_BYTES) return documentMessages.tooLarge;
  const lower = file.name.toLowerCase();
  const dot = lower.lastIndexOf('.');
  const extension = dot >= 0 ? lower.slice(dot) : '';
  if (!(ALLOWED_FILE_EXTENSIONS as readonly string[]).includes(extension))
    return documentMessages.wrongType;
  if (file.name.length > MAX_FILE_NAME_LENGTH) return documentMessages.nameTooLong;
  if (file.size === 0) return documentMessages.empty;
  // SECURITY.md 3.2: no path or control characters, no leading dot or hyphen, no `..`.
  if (
    FORBIDDEN_NAME_CHARACTERS.test(file.name) ||
    /^[.-]/.test(file.name) ||
    file.name.includes('..')
  )
    return documentMessages.badName;
  return null;
}

const questionKey = () => z.string().check(z.minLength(1), z.maxLength(128));

/** POST /api/presigned-url. */
export const presignedUrlBody = z.object({ answer_key: questionKey() });
/** The presigned upload data (SPEC 3.4): post every field, then `file`, to `url`. */
export const presignedUrlResponse = z.object({
  url: z.string(),
  fields: z.catchall(z.object({ key: z.string() }), z.string()),
});
export type PresignedUrlResponse = z.output<typeof presignedUrlResponse>;

/** POST /api/pdf/document-answer/{question_key}. */
export const conversionBody = z.object({
  file_key: z.string().check(z.minLength(1), z.maxLength(512)),
  file_name: z.string().check(z.minLength(1), z.maxLength(255)),
});
export type ConversionBody = z.output<typeof conversionBody>;

/** GET /api/pdf/document-answer/{question_key}: the conversion status record (SPEC 3.4). */
export const conversionResponse = z.object({
  status: conversionStatus,
  message: z.string(),
  error: z.optional(z.nullable(z.string())),
  /**
   * FAILED only: the name of the file that failed (D173), so a failure found when the page loads,
   * maybe sent from another device, names its file as one seen while it converted does.
   */
  file_name: z.optional(z.string()),
});
export type ConversionResponse = z.output<typeof conversionResponse>;

/** One document answer, shown as "name (size)". */
export const documentAnswer = z.object({ file_name: z.string(), file_size: z.number() });
/** GET /api/document-answer: question key → document answer. */
export const documentAnswersResponse = z.record(z.string(), documentAnswer);
export type DocumentAnswers = z.output<typeof documentAnswersResponse>;

/** Cache names used for refreshing (SPEC 7.2). */
export const DOCUMENT_ANSWER_CACHE = 'document-answer';
export const DOC_CONVERSION_CACHE = 'doc-conversion';
