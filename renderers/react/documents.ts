/**
 * Document questions (SPEC 4.4) read their state through a DocumentSource, as answers come through an
 * AnswerSource: the app backs it with its upload chain and caches, a test with a fixed map. The
 * renderer only draws the state and forwards the applicant's two actions (choose a file, delete it).
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

const sameState = (a: DocumentState, b: DocumentState) =>
  a.phase === b.phase &&
  a.problem === b.problem &&
  a.file?.name === b.file?.name &&
  a.file?.size === b.file?.size;

/**
 * An observable map of document states that keeps each key's object while it is unchanged, so a
 * change to one question re-renders that question only. The actions are set by whoever owns the
 * upload chain; until then choosing and deleting do nothing.
 */
export class DocumentStore implements DocumentSource {
  private states: Readonly<Record<string, DocumentState>> = {};
  private readonly listeners = new Set<() => void>();
  private handlers: Pick<DocumentSource, 'choose' | 'requestDelete'> | null = null;

  constructor(
    readonly accept: string,
    readonly text: DocumentText,
    private readonly fallback: DocumentState = NO_DOCUMENT,
  ) {}

  stateOf = (key: string): DocumentState =>
    Object.prototype.hasOwnProperty.call(this.states, key)
      ? (this.states[key] ?? this.fallback)
      : this.fallback;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  choose = (key: string, files: readonly File[]) => this.handlers?.choose(key, files);
  requestDelete = (key: string) => this.handlers?.requestDelete(key);

  setHandlers(handlers: Pick<DocumentSource, 'choose' | 'requestDelete'> | null): void {
    this.handlers = handlers;
  }

  /** Replaces the states; a key whose state did not change keeps its object. */
  set(next: Readonly<Record<string, DocumentState>>): void {
    const merged: Record<string, DocumentState> = {};
    let changed = Object.keys(next).length !== Object.keys(this.states).length;
    for (const [key, state] of Object.entries(next)) {
      const previous = this.states[key];
      if (previous && sameState(previous, state)) merged[key] = previous;
      else {
        merged[key] = state;
        changed = true;
      }
    }
    if (!changed) return;
    this.states = merged;
    for (const listener of this.listeners) listener();
  }
}

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
