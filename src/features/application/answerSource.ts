/**
 * The answers live in TanStack Form; renderers read them through an AnswerSource. Every change goes
 * through the runtime's clearing (SPEC 4.7), so hidden content never keeps stale answers.
 */
import type { AnyFormApi } from '@tanstack/react-form';
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

export function formAnswerSource(
  form: AnyFormApi,
  definition: Definition,
  viewState: () => ViewState,
  onChange: () => void,
): FormAnswerSource {
  const dirty = new Set<string>();
  const values = (): Record<string, AnswerValue> =>
    form.state.values as Record<string, AnswerValue>;

  const write = (next: Record<string, unknown>, before: Record<string, AnswerValue>): string[] => {
    const changed: string[] = [];
    for (const [key, value] of Object.entries(next)) {
      if (value !== before[key] && !(value === '' && before[key] === undefined)) {
        form.setFieldValue(key, value as AnswerValue, { dontUpdateMeta: true });
        dirty.add(key);
        changed.push(key);
      }
    }
    return changed;
  };

  return {
    getAnswer: (key) =>
      Object.prototype.hasOwnProperty.call(form.state.values, key) ? values()[key] : undefined,
    subscribe: (listener) => {
      const subscription = form.store.subscribe(() => listener());
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
