/**
 * The answers live in one TanStack Store (the answer map is the runtime's job, so TanStack Form's
 * core stays off the first page); renderers read them through an AnswerSource. Every change goes
 * through one runtime evaluation (clearing, SPEC 4.7; the view; the errors), so hidden content
 * never keeps stale answers and every page reads the same pass.
 */
import { Store } from '@tanstack/store';
import {
  evaluate,
  questionOf,
  storedAnswer,
  type Definition,
  type Evaluation,
  type ViewState,
} from '#runtime';
import type { AnswerSource } from '#renderers/react/index.ts';
import type { AnswerValue } from '#renderers/registry.ts';

export interface FormAnswerSource extends AnswerSource {
  /** Every answer now. */
  all(): Record<string, AnswerValue>;
  /** Keys changed since the last `takeDirty()`, as they are saved (a date not yet one as ''). */
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
  /** The current evaluation (view, errors) under the current view state. */
  evaluation(state?: ViewState, now?: Date): Evaluation;
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
  const kindOf = (key: string) => questionOf(definition, key)?.kind;
  let current: Evaluation | null = null;

  /** The evaluation of these answers under this state, reusing the last one for what is unchanged. */
  const evaluated = (answers: Record<string, unknown>, state: ViewState, now?: Date) => {
    if (current === null || current.answers !== answers || current.state !== state) {
      current = evaluate(definition, answers, state, { previous: current, now });
    }
    return current;
  };

  // The changes that matter: a value that differs (an empty text where there was nothing does not).
  const effective = (patch: Record<string, unknown>, before: Record<string, AnswerValue>) => {
    const changed: Record<string, AnswerValue> = {};
    for (const [key, value] of Object.entries(patch)) {
      if (value !== before[key] && !(value === '' && before[key] === undefined))
        changed[key] = value as AnswerValue;
    }
    return changed;
  };

  // Takes the updated answers as the evaluation saw them: one store update (one notification).
  const take = (evaluation: Evaluation, before: Record<string, AnswerValue>): string[] => {
    const keys = Object.keys(effective(evaluation.answers, before));
    for (const key of keys) dirty.add(key);
    if (keys.length > 0) store.setState(() => evaluation.answers as Record<string, AnswerValue>);
    return keys;
  };

  /** Evaluates the new answers (clearing what hides) and stores them as the evaluation saw them. */
  const commit = (after: Record<string, unknown>, before: Record<string, AnswerValue>) => {
    if (take(evaluated(after, viewState()), before).length > 0) onChange();
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
      const changed = effective(patch, before);
      if (Object.keys(changed).length > 0) commit({ ...before, ...changed }, before);
    },
    reclear(state) {
      const before = values();
      const evaluation = evaluated(before, state);
      if (take(evaluation, before).length > 0) onChange();
      return [...evaluation.cleared];
    },
    evaluation: (state = viewState(), now) => evaluated(values(), state, now),
    all: values,
    takeDirty() {
      const current = values();
      const out: Record<string, AnswerValue> = {};
      for (const key of dirty) out[key] = storedAnswer(current[key] ?? '', kindOf(key));
      dirty.clear();
      return out;
    },
    markDirty(keys) {
      for (const key of keys) dirty.add(key);
    },
    adopt(patch) {
      const before = values();
      const changed = effective(patch, before);
      for (const key of Object.keys(patch)) dirty.delete(key);
      if (Object.keys(changed).length === 0) return;
      store.setState((state) => ({ ...state, ...changed }));
      onChange();
    },
    hasDirty: () => dirty.size > 0,
    isDirty: (key) => dirty.has(key),
    dirtyKeys: () => [...dirty],
  };
}
