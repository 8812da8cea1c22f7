/**
 * The answers live in one TanStack Store (the answer map is the runtime's job, so TanStack Form's
 * core stays off the first page); renderers read them through an AnswerSource. Every change goes
 * through the runtime's clearing (SPEC 4.7), so hidden content never keeps stale answers.
 */
import { Store } from '@tanstack/store';
import { applyClearing, storedAnswer, type Definition, type ViewState } from '../../../runtime';
import type { AnswerSource } from '../../../renderers/react';
import type { AnswerValue } from '../../../renderers/registry';

export interface FormAnswerSource extends AnswerSource {
  /** Every answer now. */
  all(): Record<string, AnswerValue>;
  /** Keys changed since the last `takeDirty()`, as they are saved (an unparsable date as ''). */
  takeDirty(): Record<string, AnswerValue>;
  /** Puts keys back as unsaved (a save failed). */
  markDirty(keys: Iterable<string>): void;
  /** Takes values that are already stored on the server (keep theirs): shown, not saved again. */
  adopt(patch: Record<string, AnswerValue>): void;
  hasDirty(): boolean;
  isDirty(key: string): boolean;
  dirtyKeys(): string[];
  /** Applies a view-state change (a tab switch) and clears what it hides. */
  reclear(state: ViewState): string[];
}

/** The store the answers live in, created once per form with what was known at its start. */
export type AnswerStore = Store<Record<string, AnswerValue>>;

export function createAnswerStore(initial: Record<string, AnswerValue>): AnswerStore {
  return new Store<Record<string, AnswerValue>>({ ...initial });
}

export function formAnswerSource(
  store: AnswerStore,
  definition: Definition,
  viewState: () => ViewState,
  onChange: () => void,
): FormAnswerSource {
  const dirty = new Set<string>();
  const values = (): Record<string, AnswerValue> => store.state;

  // One store update (and one notification) per change, however many keys it touches.
  const write = (next: Record<string, unknown>, before: Record<string, AnswerValue>): string[] => {
    const changed: Record<string, AnswerValue> = {};
    for (const [key, value] of Object.entries(next)) {
      if (value !== before[key] && !(value === '' && before[key] === undefined)) {
        changed[key] = value as AnswerValue;
        dirty.add(key);
      }
    }
    const keys = Object.keys(changed);
    if (keys.length > 0) store.setState((current) => ({ ...current, ...changed }));
    return keys;
  };

  return {
    getAnswer: (key) =>
      Object.prototype.hasOwnProperty.call(store.state, key) ? values()[key] : undefined,
    subscribe: (listener) => {
      const subscription = store.subscribe(() => listener());
      return () => subscription.unsubscribe();
    },
    setAnswers(patch) {
      const before = values();
      const { answers } = applyClearing(definition, before, { ...before, ...patch }, viewState());
      if (write(answers, before).length > 0) onChange();
    },
    reclear(state) {
      const before = values();
      const { answers, cleared } = applyClearing(definition, before, before, state);
      if (write(answers, before).length > 0) onChange();
      return cleared;
    },
    all: values,
    takeDirty() {
      const current = values();
      const out: Record<string, AnswerValue> = {};
      for (const key of dirty) out[key] = storedAnswer(current[key] ?? '');
      dirty.clear();
      return out;
    },
    markDirty(keys) {
      for (const key of keys) dirty.add(key);
    },
    adopt(patch) {
      const before = values();
      const changed = write(patch, before);
      for (const key of Object.keys(patch)) dirty.delete(key);
      if (changed.length > 0) onChange();
    },
    hasDirty: () => dirty.size > 0,
    isDirty: (key) => dirty.has(key),
    dirtyKeys: () => [...dirty],
  };
}
