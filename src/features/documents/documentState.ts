/**
 * What a document question shows (SPEC 4.4), from what the app knows of it: a file on its way, its
 * conversion's status, the document answers and the last refusal. Pure, so the rules read in one place.
 */
import type { ConversionResponse, DocumentAnswers, FileFacts } from '#contract';
import type { DocumentState } from '#renderers/react/index.ts';
import { isPending } from './api/conversion';

export const LOADING: DocumentState = { phase: 'loading', file: null, problem: null };

export interface DocumentFacts {
  /** The file being sent (presigned url, upload, conversion request). */
  readonly uploading: FileFacts | undefined;
  /** The file sent last, named while it converts. */
  readonly sent: FileFacts | undefined;
  readonly conversion: ConversionResponse | undefined;
  readonly files: DocumentAnswers | undefined;
  /** The document answers are first being fetched (a failed fetch is not pending: no file then). */
  readonly filesPending: boolean;
  readonly filesFetching: boolean;
  /** Why the last file was refused or failed. */
  readonly problem: string | undefined;
}

export function documentStateOf(key: string, facts: DocumentFacts): DocumentState {
  const { uploading, conversion, files } = facts;
  if (uploading) return { phase: 'uploading', file: uploading, problem: null };
  if (isPending(conversion))
    return { phase: 'converting', file: facts.sent ?? null, problem: null };
  const file = files?.[key];
  // A conversion just completed: its file shows once the refetched answers name it.
  if (
    !conversion ||
    facts.filesPending ||
    (conversion.status === 'COMPLETED' && !file && facts.filesFetching)
  )
    return LOADING;
  if (file && conversion.status !== 'FAILED')
    return {
      phase: 'present',
      file: { name: file.file_name, size: file.file_size },
      problem: null,
    };
  return { phase: 'empty', file: null, problem: facts.problem ?? null };
}
