/**
 * Document questions (SPEC 4.4) read their state through a DocumentSource, as answers come through an
 * AnswerSource: the app backs it with its store and upload chain, a test with a fixed map. Each
 * question reads its own key, so a source that keeps a key's object while its state is unchanged
 * re-renders that question only. The renderer only draws the state and forwards the applicant's two actions (choose a file, delete it).
 */
import { useSyncExternalStore } from 'react';

/**
 * - `loading`: the document answers or the conversion status are still being fetched;
 * - `empty`: no file (SPEC 4.4 state 1; a failed check of SPEC 5.6 leaves it here with a `problem`);
 * - `uploading`, `converting`: state 3;
 * - `present`: state 4, with `file`.
 */
export type DocumentPhase = 'loading' | 'empty' | 'uploading' | 'converting' | 'present';

export interface DocumentState {
  readonly phase: DocumentPhase;
  /** The file shown (present) or being sent (uploading, converting); null otherwise. */
  readonly file: { readonly name: string; readonly size: number } | null;
  /** Why the last file was refused or failed (a check of SPEC 5.6, or the conversion's message). */
  readonly problem: string | null;
}

/** The file question's words; the app passes those of its definition (docs/decisions/ D35). */
export interface DocumentText {
  /** SPEC 4.4: why the question waits for a logged-out applicant. */
  readonly anonymous: string;
  readonly choose: string;
  readonly delete: string;
  /** The Delete button's accessible name, naming the file. */
  readonly deleteLabel: (fileName: string) => string;
  /** The document answers or the conversion status are still being fetched. */
  readonly loading: string;
  readonly uploading: (fileName: string) => string;
  /** `fileName` is empty for a conversion found on load (its name is not known yet). */
  readonly converting: (fileName: string) => string;
}

export interface DocumentSource {
  stateOf(key: string): DocumentState;
  subscribe(listener: () => void): () => void;
  /** The file input's `accept` list (the allowed extensions). */
  readonly accept: string;
  readonly text: DocumentText;
  /** The applicant chose files for a question: check them, then upload. */
  choose(key: string, files: readonly File[]): void;
  /** The applicant asked to delete a question's file (the app confirms first). */
  requestDelete(key: string): void;
}

export const NO_DOCUMENT: DocumentState = Object.freeze({
  phase: 'empty',
  file: null,
  problem: null,
});

export function useDocument(source: DocumentSource, key: string): DocumentState {
  return useSyncExternalStore(
    source.subscribe,
    () => source.stateOf(key),
    () => source.stateOf(key),
  );
}

/**
 * The size in "name (size)" of SPEC 3.4 (docs/decisions/ D36): bytes below 1 kB, then kB, then MB,
 * with 1 kB = 1024 bytes and 1 MB = 1024 kB, rounded half up to one decimal with a trailing ".0"
 * dropped. The unit is chosen after rounding, so a size that rounds to 1024 kB reads "1 MB".
 */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const kb = oneDecimal(bytes / 1024);
  if (kb < 1024) return `${kb} kB`;
  return `${oneDecimal(bytes / 1024 / 1024)} MB`;
}

function oneDecimal(value: number): number {
  return Math.round(value * 10) / 10;
}
