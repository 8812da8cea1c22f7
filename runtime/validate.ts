import {
  chainOpen,
  compile,
  guardOpen,
  scratchMemo,
  type CompiledModel,
  type FieldInstance,
  type ViewState,
} from './model';
import type { Definition } from './format';
import { runCheck } from './rules';
import { readAnswer, type Answers } from './values';

export interface ValidateOptions extends ViewState {
  /** The current time (default: now), so date rules are deterministic in tests. */
  readonly now?: Date;
}

export interface ValidationResult {
  /** Messages per answer key (month/year errors combined under the month key), duplicates removed. */
  readonly errors: Record<string, string[]>;
  /** The same messages grouped per page id, then per key. */
  readonly byPage: Record<string, Record<string, string[]>>;
}

const EMPTY_ANSWERS: Answers = Object.freeze({});
const NO_MESSAGES: readonly string[] = Object.freeze([]);

/** Anything that is not a plain object validates as no answers at all. */
export function asAnswers(value: unknown): Answers {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Answers)
    : EMPTY_ANSWERS;
}

function runChecks(
  instance: FieldInstance,
  value: unknown,
  answers: Answers,
  now: Date,
  into: string[] | null,
): string[] | null {
  let messages = into;
  const checks = instance.checks;
  for (let i = 0; i < checks.length; i++) {
    const message = runCheck(checks[i]!, value, answers, now);
    if (message !== null) {
      if (messages === null) messages = [message];
      else if (!messages.includes(message)) messages.push(message);
    }
  }
  return messages;
}

/**
 * SPEC 5: every rule of the definition over the answers, all errors collected (no stopping at the
 * first), duplicates removed, grouped per key and per page. Hidden questions are not validated.
 */
export function validateAnswers(
  definition: Definition,
  answers: unknown,
  options: ValidateOptions = {},
): ValidationResult {
  const model = compile(definition);
  const input = asAnswers(answers);
  const now = options.now ?? new Date();
  const memo = scratchMemo(model);
  const errors: Record<string, string[]> = {};
  const byPage: Record<string, Record<string, string[]>> = {};
  for (const group of model.checkedByKey) {
    let messages: string[] | null = null;
    // Each question's checks get its answer, read once here.
    const value = group.inherited ? readAnswer(input, group.key) : input[group.key];
    const instances = group.instances;
    for (let i = 0; i < instances.length; i++) {
      const instance = instances[i]!;
      if (instance.guard === null || guardOpen(instance.guard, input, options, memo))
        messages = runChecks(instance, value, input, now, messages);
    }
    if (messages !== null) {
      errors[group.key] = messages;
      (byPage[group.pageId] ??= {})[group.key] = messages;
    }
  }
  return { errors, byPage };
}

/**
 * The errors of one question (what a keystroke costs): its own rules and its own visibility only.
 * `key` may be the month or the year key of a month/year question.
 */
export function validateField(
  definition: Definition,
  answers: unknown,
  key: string,
  options: ValidateOptions = {},
): readonly string[] {
  return validateFieldIn(compile(definition), asAnswers(answers), key, options);
}

export function validateFieldIn(
  model: CompiledModel,
  answers: Answers,
  key: string,
  options: ValidateOptions,
): readonly string[] {
  const instances = model.byKey.get(key);
  if (!instances) return NO_MESSAGES;
  const now = options.now ?? new Date();
  let messages: string[] | null = null;
  for (const instance of instances) {
    if (instance.checks.length === 0 || !chainOpen(instance.guard, answers, options)) continue;
    messages = runChecks(instance, readAnswer(answers, instance.key), answers, now, messages);
  }
  return messages ?? NO_MESSAGES;
}

/** True when the answers may be submitted (SPEC 5.1: zero errors). */
export function canSubmit(
  definition: Definition,
  answers: unknown,
  options: ValidateOptions = {},
): boolean {
  return Object.keys(validateAnswers(definition, answers, options).errors).length === 0;
}
