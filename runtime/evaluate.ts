/**
 * One evaluation per change: the visible view, the keys to clear and the errors, from one walk of
 * the guards, reused from the previous evaluation for whatever the change did not touch. A change
 * to keys no guard reads costs no walk at all; errors are recomputed for the changed keys and the
 * keys whose checks read them (and, after a walk, the keys whose visibility flipped).
 */
import { emptyValueFor } from './dataModel';
import { pageViewFromMemo, type PageView } from './visibility';
import type { Definition } from './format';
import { runCheck } from './rules';
import {
  compile,
  guardOpen,
  instrumentation,
  newMemo,
  type CompiledModel,
  type GuardMemo,
  type ViewState,
} from './model';
import { isEmpty, readAnswer, type Answers } from './values';
import { clearingFrom } from './clearing';

export interface EvaluateOptions {
  /** The current time (default: now), for date rules and generated year lists. */
  readonly now?: Date;
  /** The evaluation of the answers before this change: what it did not touch is reused. */
  readonly previous?: Evaluation | null;
}

export interface Evaluation {
  readonly definition: Definition;
  /** The answers after clearing (the same object as given when nothing was cleared). */
  readonly answers: Answers;
  readonly state: ViewState;
  /** Keys cleared to reach `answers` (SPEC 4.7). */
  readonly cleared: readonly string[];
  /** Messages per answer key, as `validateAnswers` gives them. */
  readonly errors: Readonly<Record<string, readonly string[]>>;
  /** One page of the view by id or path; the same object while nothing it shows changed. */
  page(page: string): PageView | null;
}

interface Internals {
  readonly memo: GuardMemo;
  /** 1 where the instance is visible. */
  readonly visible: Uint8Array;
  readonly pages: Map<string, PageView | null>;
  readonly now: Date;
}

const internals = new WeakMap<Evaluation, Internals>();

/** The keys whose values differ between two answer maps (both maps' keys). */
function changedKeys(before: Answers, after: Answers): string[] {
  const changed: string[] = [];
  for (const key in after)
    if (readAnswer(before, key) !== readAnswer(after, key)) changed.push(key);
  for (const key in before)
    if (!(key in after) && readAnswer(before, key) !== undefined) changed.push(key);
  return changed;
}

/** True when one of the changed keys can change what the view or a guard shows. */
function touchesView(
  model: CompiledModel,
  before: Answers,
  after: Answers,
  changed: readonly string[],
) {
  for (const key of changed) {
    if (model.viewKeys.has(key)) return true;
    if (
      model.presenceKeys.has(key) &&
      isEmpty(readAnswer(before, key)) !== isEmpty(readAnswer(after, key))
    )
      return true;
  }
  return false;
}

function walk(model: CompiledModel, answers: Answers, state: ViewState): Internals['memo'] {
  const memo = newMemo(model);
  for (const instance of model.instances) guardOpen(instance.guard, answers, state, memo);
  return memo;
}

function visibility(model: CompiledModel, memo: GuardMemo): Uint8Array {
  const visible = new Uint8Array(model.instances.length);
  for (const instance of model.instances)
    visible[instance.index] = instance.guard === null || memo[instance.guard.id] === 1 ? 1 : 0;
  return visible;
}

function messagesOf(
  model: CompiledModel,
  key: string,
  answers: Answers,
  visible: Uint8Array,
  now: Date,
): string[] | null {
  instrumentation.onValidateKey?.(key);
  let messages: string[] | null = null;
  for (const instance of model.byKey.get(key) ?? []) {
    if (instance.checks.length === 0 || visible[instance.index] !== 1) continue;
    if (instance.key !== key) continue; // a year key's checks run under its month key
    const value = readAnswer(answers, key);
    for (const check of instance.checks) {
      const message = runCheck(check, value, answers, now);
      if (message === null) continue;
      if (messages === null) messages = [message];
      else if (!messages.includes(message)) messages.push(message);
    }
  }
  return messages;
}

function allErrors(model: CompiledModel, answers: Answers, visible: Uint8Array, now: Date) {
  const errors: Record<string, string[]> = {};
  const seen = new Set<string>();
  for (const instance of model.checked) {
    if (seen.has(instance.key)) continue;
    seen.add(instance.key);
    const messages = messagesOf(model, instance.key, answers, visible, now);
    if (messages) errors[instance.key] = messages;
  }
  return errors;
}

/**
 * Evaluates the answers under the UI state: clears what hides (until nothing more hides), then
 * gives the view and the errors. With `previous`, only what the change touched is recomputed.
 */
export function evaluate(
  definition: Definition,
  input: Answers,
  state: ViewState,
  options: EvaluateOptions = {},
): Evaluation {
  const model = compile(definition);
  const previous = options.previous ?? null;
  const before = previous ? internals.get(previous) : undefined;
  const now = options.now ?? before?.now ?? new Date();
  const prior = previous?.answers ?? input;
  let changed = previous ? changedKeys(prior, input) : [];
  const reuse =
    previous !== null &&
    before !== undefined &&
    previous.definition === definition &&
    previous.state === state &&
    !touchesView(model, prior, input, changed) &&
    !changed.some((key) => model.owners.get(key)?.some((i) => before.visible[i.index] !== 1));

  let answers = input;
  let memo: GuardMemo;
  const cleared: string[] = [];
  if (reuse) {
    memo = before.memo;
  } else {
    memo = walk(model, answers, state);
    // Clearing one answer can hide further content: repeat until nothing more clears.
    let last = prior;
    for (let round = 0; round < 16; round++) {
      const keys = clearingFrom(model, last, answers, state, memo);
      if (keys.length === 0) break;
      const next: Record<string, unknown> = { ...answers };
      for (const key of keys) next[key] = emptyValueFor(model.definition, key);
      cleared.push(...keys);
      last = answers;
      answers = next;
      memo = walk(model, answers, state);
    }
  }

  const visible = reuse ? before.visible : visibility(model, memo);
  let errors: Record<string, readonly string[]>;
  if (!previous || !before || previous.definition !== definition) {
    errors = allErrors(model, answers, visible, now);
  } else {
    if (cleared.length > 0) changed = [...changed, ...cleared];
    const affected = new Set<string>();
    for (const key of changed) {
      if (model.byKey.has(key)) affected.add(model.byKey.get(key)![0]!.key);
      for (const dependant of model.dependants.get(key) ?? []) affected.add(dependant);
    }
    if (!reuse)
      for (const instance of model.checked)
        if (visible[instance.index] !== before.visible[instance.index]) affected.add(instance.key);
    errors = { ...previous.errors };
    for (const key of affected) {
      const messages = messagesOf(model, key, answers, visible, now);
      if (messages) errors[key] = messages;
      else delete errors[key];
    }
  }

  const own: Internals = { memo, visible, now, pages: reuse ? before.pages : new Map() };
  const evaluation: Evaluation = {
    definition,
    answers,
    state,
    cleared,
    errors,
    page(page) {
      if (own.pages.has(page)) return own.pages.get(page)!;
      const found = model.pages.find((p) => p.page.id === page || p.page.path === page);
      const view = found ? pageViewFromMemo(found, answers, state, memo, now) : null;
      own.pages.set(page, view);
      return view;
    },
  };
  internals.set(evaluation, own);
  return evaluation;
}
