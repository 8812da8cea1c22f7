/**
 * Rules compiled once into plain closures: `(value, answers, now) => message | null`, where `value`
 * is the question's own answer, read once per question by the caller. No zod, no schema walk on the
 * hot path, no generated source (the product runs under a strict CSP).
 */
import { compileCondition, type KeyResolver } from './conditions';
import { isIsoDate, relativeIsoDate } from './dates';
import { ConfigurationError } from './errors';
import type { Message, Question, RelativeDate, Rule } from './format';
import type { Slot } from './keys';
import { atLeastLength, withinLength } from './textLength';
import { answerReader, isBlank, isEmpty, textOf, type Answers } from './values';

/** A compiled rule: `value` is the answer under the question's key (read with `readAnswer`). */
export type Check = (value: unknown, answers: Answers, now: Date) => string | null;

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

function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}

/** A check that runs only while `when` holds. */
function guarded(rule: Rule, check: Check, resolve: KeyResolver): Check {
  if (!rule.when) return check;
  const when = compileCondition(rule.when, resolve);
  return (value, answers, now) => (when(answers) ? check(value, answers, now) : null);
}

/** A check on a non-empty text answer; a value that is not text fails it. */
function onText(message: string, holds: (text: string) => boolean): Check {
  return (value) => {
    if (isEmpty(value)) return null;
    const text = textOf(value);
    return text !== null && holds(text) ? null : message;
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
      const readYear = yearKey ? answerReader(yearKey) : null;
      const check: Check = readYear
        ? (value, answers) => (isBlank(value) || isBlank(readYear(answers)) ? message : null)
        : (value) => (isBlank(value) ? message : null);
      return guarded(rule, check, resolve);
    }
    case 'mustBeTrue': {
      const message = rule.message ? messageFor(rule.message, slot) : defaultRequiredMessage(key);
      return guarded(rule, (value) => (isTrue(value) ? null : message), resolve);
    }
    case 'pattern': {
      if (rule.flags?.includes('g') || rule.flags?.includes('y')) {
        throw new ConfigurationError('A pattern rule may not use the g or y flag', context.path);
      }
      const pattern = new RegExp(rule.pattern, rule.flags);
      return guarded(
        rule,
        onText(messageFor(rule.message, slot), (text) => pattern.test(text)),
        resolve,
      );
    }
    case 'email':
      return guarded(
        rule,
        onText(messageFor(rule.message, slot), (text) => EMAIL_PATTERN.test(text)),
        resolve,
      );
    case 'maxLength': {
      const message = rule.message
        ? messageFor(rule.message, slot)
        : `${key} must be at most ${rule.max} characters`;
      return guarded(
        rule,
        onText(message, (text) => withinLength(text, rule.max)),
        resolve,
      );
    }
    case 'minLength':
      return guarded(
        rule,
        onText(messageFor(rule.message, slot), (text) => atLeastLength(text, rule.min)),
        resolve,
      );
    case 'range': {
      const { min, max, step } = rule;
      const holds = (text: string) => {
        if (!DECIMAL.test(text.trim())) return false;
        const n = Number(text);
        if (n < min || n > max) return false;
        if (step === undefined) return true;
        const steps = (n - min) / step;
        return Math.abs(steps - Math.round(steps)) < 1e-9;
      };
      return guarded(rule, onText(messageFor(rule.message, slot), holds), resolve);
    }
    case 'date':
      return guarded(rule, onText(messageFor(rule.message, slot), isIsoDate), resolve);
    case 'dateWindow': {
      const minBound = dateBound(rule.min);
      const maxBound = dateBound(rule.max);
      const minMessage = messageFor(rule.minMessage, slot);
      const maxMessage = messageFor(rule.maxMessage, slot);
      const check: Check = (value, _answers, now) => {
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
      return guarded(rule, check, resolve);
    }
    default:
      throw new ConfigurationError(
        `Unknown rule kind ${JSON.stringify(kind satisfies never)}`,
        context.path,
      );
  }
}
