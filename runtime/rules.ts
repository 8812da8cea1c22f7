/**
 * Rules compiled once into plain data, run by one function (`runCheck`): `value` is the question's
 * own answer, read once per question by the caller. One function with a switch keeps the hot call
 * monomorphic, where a closure per rule made every call an indirect one. No zod, no schema walk on
 * the hot path, no generated source (the product runs under a strict CSP).
 */
import { compileCondition, type KeyResolver } from './conditions';
import { isIsoDate, relativeIsoDate } from './dates';
import { ConfigurationError } from './errors';
import type { Message, Question, RelativeDate, Rule } from './format';
import type { Slot } from './keys';
import { atLeastLength, withinLength } from './textLength';
import { answerReader, isBlank, isEmpty, textOf, type Answers } from './values';

/** What a compiled check tests (its `test`). */
const REQUIRED = 0;
const MUST_BE_TRUE = 1;
const PATTERN = 2;
const MAX_LENGTH = 3;
const MIN_LENGTH = 4;
const RANGE = 5;
const DATE = 6;
/** Anything else (a month/year's required, a date window): its own function. */
const CUSTOM = 7;

type CustomCheck = (value: unknown, answers: Answers, now: Date) => string | null;

/** A compiled rule. Every check has every field, so the objects share one shape. */
export interface Check {
  readonly test: number;
  readonly message: string;
  /** The rule's `when`: the check runs only while it holds. */
  readonly when: ((answers: Answers) => boolean) | null;
  readonly pattern: RegExp | null;
  /** maxLength's max, minLength's and range's min. */
  readonly min: number;
  readonly max: number;
  /** A range's step; NaN when it has none. */
  readonly step: number;
  readonly custom: CustomCheck | null;
}

/** The message of a failing check, or null; `value` is the answer under the question's key. */
export function runCheck(check: Check, value: unknown, answers: Answers, now: Date): string | null {
  if (check.when !== null && !check.when(answers)) return null;
  const test = check.test;
  if (test === REQUIRED) return isBlank(value) ? check.message : null;
  if (test === MUST_BE_TRUE) return value === true || value === 'true' ? null : check.message;
  if (test === CUSTOM) return check.custom!(value, answers, now);
  // The rest check a non-empty text answer; a value that is not text fails them.
  if (isEmpty(value)) return null;
  const text = textOf(value);
  if (text === null) return check.message;
  switch (test) {
    case PATTERN:
      return check.pattern!.test(text) ? null : check.message;
    case MAX_LENGTH:
      return withinLength(text, check.max) ? null : check.message;
    case MIN_LENGTH:
      return atLeastLength(text, check.min) ? null : check.message;
    case RANGE:
      return inRange(text, check.min, check.max, check.step) ? null : check.message;
    default:
      return isIsoDate(text) ? null : check.message;
  }
}

function inRange(text: string, min: number, max: number, step: number): boolean {
  if (!DECIMAL.test(text.trim())) return false;
  const n = Number(text);
  if (n < min || n > max) return false;
  if (Number.isNaN(step)) return true;
  const steps = (n - min) / step;
  return Math.abs(steps - Math.round(steps)) < 1e-9;
}

/** SPEC 5.2: a basic e-mail pattern, shared by the form rules and the account forms. */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/** A decimal number as typed: `570`, `3.85`, `-1`. */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** SPEC 5.1: the generic default message. */
export function defaultRequiredMessage(key: string): string {
  return `${key} is a required field`;
}

/** The message for a slot: per-slot lists give one message per slot, the last one standing for the rest. */
export function messageFor(message: Message, slot: Slot | null): string {
  if (typeof message === 'string') return message;
  const index = Math.min(slot?.index ?? 0, message.length - 1);
  return message[index] as string;
}

interface RuleContext {
  readonly key: string;
  /** The year key of a month/year question: both halves are checked, errors combined under `key`. */
  readonly yearKey: string | null;
  readonly question: Question;
  readonly slot: Slot | null;
  readonly resolve: KeyResolver;
  readonly path: string;
}

/** A check of `rule`: its `when` compiled, the fields its test does not use neutral. */
function checkOf(
  rule: Rule,
  resolve: KeyResolver,
  fields: Partial<Check> & Pick<Check, 'test' | 'message'>,
): Check {
  return {
    when: rule.when ? compileCondition(rule.when, resolve) : null,
    pattern: null,
    min: 0,
    max: 0,
    step: Number.NaN,
    custom: null,
    ...fields,
  };
}

function dateBound(relative: RelativeDate | undefined) {
  let year = Number.NaN;
  let iso = '';
  return relative
    ? (now: Date): string => {
        if (now.getFullYear() !== year) {
          year = now.getFullYear();
          iso = relativeIsoDate(relative, now);
        }
        return iso;
      }
    : null;
}

export function compileRule(rule: Rule, context: RuleContext): Check {
  const { key, yearKey, slot, resolve } = context;
  const kind = rule.kind;
  switch (kind) {
    case 'required': {
      const message = rule.message ? messageFor(rule.message, slot) : defaultRequiredMessage(key);
      if (!yearKey) return checkOf(rule, resolve, { test: REQUIRED, message });
      const readYear = answerReader(yearKey);
      return checkOf(rule, resolve, {
        test: CUSTOM,
        message,
        custom: (value, answers) =>
          isBlank(value) || isBlank(readYear(answers)) ? message : null,
      });
    }
    case 'mustBeTrue': {
      const message = rule.message ? messageFor(rule.message, slot) : defaultRequiredMessage(key);
      return checkOf(rule, resolve, { test: MUST_BE_TRUE, message });
    }
    case 'pattern': {
      if (rule.flags?.includes('g') || rule.flags?.includes('y')) {
        throw new ConfigurationError('A pattern rule may not use the g or y flag', context.path);
      }
      const pattern = new RegExp(rule.pattern, rule.flags);
      return checkOf(rule, resolve, {
        test: PATTERN,
        message: messageFor(rule.message, slot),
        pattern,
      });
    }
    case 'email':
      return checkOf(rule, resolve, {
        test: PATTERN,
        message: messageFor(rule.message, slot),
        pattern: EMAIL_PATTERN,
      });
    case 'maxLength': {
      const message = rule.message
        ? messageFor(rule.message, slot)
        : `${key} must be at most ${rule.max} characters`;
      return checkOf(rule, resolve, { test: MAX_LENGTH, message, max: rule.max });
    }
    case 'minLength':
      return checkOf(rule, resolve, {
        test: MIN_LENGTH,
        message: messageFor(rule.message, slot),
        min: rule.min,
      });
    case 'range':
      return checkOf(rule, resolve, {
        test: RANGE,
        message: messageFor(rule.message, slot),
        min: rule.min,
        max: rule.max,
        step: rule.step ?? Number.NaN,
      });
    case 'date':
      return checkOf(rule, resolve, { test: DATE, message: messageFor(rule.message, slot) });
    case 'dateWindow': {
      const minBound = dateBound(rule.min);
      const maxBound = dateBound(rule.max);
      const minMessage = messageFor(rule.minMessage, slot);
      const maxMessage = messageFor(rule.maxMessage, slot);
      const custom: CustomCheck = (value, _answers, now) => {
        const text = textOf(value);
        if (text === null || !isIsoDate(text)) return null; // the `date` rule reports invalid dates
        if (minBound) {
          const bound = minBound(now);
          if (text < bound) return minMessage.replaceAll('{year}', bound.slice(0, 4));
        }
        if (maxBound) {
          const bound = maxBound(now);
          if (text > bound) return maxMessage.replaceAll('{year}', bound.slice(0, 4));
        }
        return null;
      };
      return checkOf(rule, resolve, { test: CUSTOM, message: minMessage, custom });
    }
    default:
      throw new ConfigurationError(
        `Unknown rule kind ${JSON.stringify(kind satisfies never)}`,
        context.path,
      );
  }
}
