/**
 * The answer and error sources renderers read from. Any store can back them (the app adapts
 * TanStack Form; the print view uses a fixed map); each question subscribes to its own key only,
 * so typing re-renders that question, not the page.
 */
import { useSyncExternalStore } from 'react';
import type { Evaluation, ViewState } from '../../runtime';
import type { AnswerValue } from '../registry';

export interface AnswerSource {
  getAnswer(key: string): unknown;
  /** Called after any change; readers compare their own key's value. */
  subscribe(listener: () => void): () => void;
  setAnswers(answers: Readonly<Record<string, AnswerValue>>): void;
  /**
   * The runtime's evaluation of the current answers under `state`, shared by every reader (one
   * walk per change). A source without it (a fixed map) lets each page compute its own view.
   */
  evaluation?(state: ViewState, now?: Date): Evaluation;
}

export interface ErrorSource {
  /** The same array instance while a key's messages are unchanged. */
  errorsOf(key: string): readonly string[];
  subscribe(listener: () => void): () => void;
}

export const NO_ERRORS: readonly string[] = Object.freeze([]);

export function useAnswer(source: AnswerSource, key: string): unknown {
  return useSyncExternalStore(
    source.subscribe,
    () => source.getAnswer(key),
    () => source.getAnswer(key),
  );
}

export function useErrors(source: ErrorSource, key: string): readonly string[] {
  return useSyncExternalStore(
    source.subscribe,
    () => source.errorsOf(key),
    () => source.errorsOf(key),
  );
}

/** A fixed, read-only answer map (print view, tests). */
export function staticAnswers(answers: Readonly<Record<string, unknown>>): AnswerSource {
  return {
    getAnswer: (key) =>
      Object.prototype.hasOwnProperty.call(answers, key) ? answers[key] : undefined,
    subscribe: () => () => undefined,
    setAnswers: () => undefined,
  };
}

/** Errors from a map of key → messages, each array kept as given. */
export function staticErrors(errors: Readonly<Record<string, readonly string[]>>): ErrorSource {
  return {
    errorsOf: (key) =>
      Object.prototype.hasOwnProperty.call(errors, key) ? (errors[key] ?? NO_ERRORS) : NO_ERRORS,
    subscribe: () => () => undefined,
  };
}

/**
 * `next` with the entries of `previous` that are `same` as theirs kept (so a key's reader sees no
 * change), or `previous` itself when nothing changed.
 */
export function keepUnchanged<T>(
  previous: Readonly<Record<string, T>>,
  next: Readonly<Record<string, T>>,
  same: (a: T, b: T) => boolean,
): Readonly<Record<string, T>> {
  const merged: Record<string, T> = {};
  let changed = Object.keys(next).length !== Object.keys(previous).length;
  for (const [key, value] of Object.entries(next)) {
    const before = Object.prototype.hasOwnProperty.call(previous, key) ? previous[key] : undefined;
    const kept = before !== undefined && same(before, value);
    merged[key] = kept ? before : value;
    if (!kept) changed = true;
  }
  return changed ? merged : previous;
}

/** Two message lists are the same when they hold the same messages in the same order. */
export const sameMessages = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((message, i) => message === b[i]);

/** A small observable error map that keeps array identity for unchanged keys. */
export class ErrorStore implements ErrorSource {
  private errors: Readonly<Record<string, readonly string[]>> = {};
  private readonly listeners = new Set<() => void>();

  errorsOf = (key: string): readonly string[] =>
    Object.prototype.hasOwnProperty.call(this.errors, key)
      ? (this.errors[key] ?? NO_ERRORS)
      : NO_ERRORS;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Replaces the errors; keys whose messages did not change keep their array. */
  set(next: Readonly<Record<string, readonly string[]>>): void {
    const merged = keepUnchanged(this.errors, next, sameMessages);
    if (merged === this.errors) return;
    this.errors = merged;
    for (const listener of this.listeners) listener();
  }

  all(): Readonly<Record<string, readonly string[]>> {
    return this.errors;
  }
}
