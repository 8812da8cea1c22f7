/**
 * Clearing (SPEC 4.7): the keys that must be emptied when content hides, and applying it until
 * nothing more hides.
 */
import { emptyValueFor } from './dataModel';
import type { Definition } from './format';
import {
  compile,
  guardOpen,
  newMemo,
  type CompiledModel,
  type FieldInstance,
  type GuardMemo,
  type ViewState,
} from './model';
import { isEmpty, readAnswer, type Answers } from './values';
import { asAnswers } from './validate';

function sameAnswer(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  return (
    a === b ||
    (a !== null && b !== null && a !== undefined && b !== undefined && String(a) === String(b))
  );
}

/** True when a guard on the instance's chain hides it and clears this key. */
function clearedByChain(
  instance: FieldInstance,
  key: string,
  answers: Answers,
  state: ViewState,
): boolean {
  for (let guard = instance.guard; guard !== null; guard = guard.parent) {
    if (guard.clears !== null && guard.clears(key) && !guard.holds(answers, state)) return true;
  }
  return false;
}

/** keysToClear over guards already decided in `memo` for `current` (no walk of its own). */
export function clearingFrom(
  model: CompiledModel,
  previous: Answers,
  current: Answers,
  state: ViewState,
  memo: GuardMemo,
): string[] {
  const visibleKeys = new Set<string>();
  const hidden: FieldInstance[] = [];
  const clear = new Set<string>();
  for (const instance of model.instances) {
    if (guardOpen(instance.guard, current, state, memo)) {
      for (const key of instance.ownedKeys) visibleKeys.add(key);
    } else {
      hidden.push(instance);
    }
    if (instance.controlKey !== null) {
      const control = instance.controlKey;
      if (!sameAnswer(readAnswer(previous, control), readAnswer(current, control))) {
        clear.add(instance.key);
        if (instance.descKey) clear.add(instance.descKey);
      }
    }
  }
  for (const instance of hidden) {
    for (const key of instance.ownedKeys) {
      if (!visibleKeys.has(key) && clearedByChain(instance, key, current, state)) clear.add(key);
    }
  }
  return [...clear].filter((key) => !isEmpty(readAnswer(current, key)));
}

/**
 * The keys that hold a value in `after` but must be cleared (SPEC 4.7): keys of hidden sections (their
 * listed keys), losing cases of mutually exclusive groups, radio-driven content of other values,
 * the other side of a checkbox trigger, left tabs, hidden conditional selects, and the dependent
 * answer (and its `_desc`) of a conditional select whose controlling answer changed since `before`.
 * A key still visible elsewhere is kept.
 */
export function keysToClear(
  definition: Definition,
  before: unknown,
  after: unknown,
  state: ViewState = {},
): string[] {
  const model = compile(definition);
  return clearingFrom(model, asAnswers(before), asAnswers(after), state, newMemo(model));
}

/**
 * Applies clearing until nothing more hides (clearing one answer can hide further content).
 * Returns the new answers and every key that was cleared.
 */
export function applyClearing(
  definition: Definition,
  before: unknown,
  after: unknown,
  state: ViewState = {},
): { answers: Record<string, unknown>; cleared: string[] } {
  let previous = asAnswers(before);
  let current: Record<string, unknown> = { ...asAnswers(after) };
  const cleared: string[] = [];
  for (let round = 0; round < 16; round++) {
    const keys = keysToClear(definition, previous, current, state);
    if (keys.length === 0) break;
    previous = current;
    current = { ...current };
    for (const key of keys) {
      current[key] = emptyValueFor(definition, key);
      cleared.push(key);
    }
  }
  return { answers: current, cleared };
}
