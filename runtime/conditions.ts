import { ConfigurationError } from './errors';
import { OPERATOR_TARGETS, type Comparison, type Condition, type Scalar } from './format';
import {
  answerReader,
  internalized,
  isEmpty,
  isPrototypeName,
  numberOf,
  readAnswer,
  type Answers,
} from './values';

/** Resolves a comparison's key to an answer key; inside a repeat slot, `scope: 'slot'` keys are local. */
export type KeyResolver = (comparison: Comparison) => string;

const globalKey: KeyResolver = (comparison) => {
  if (comparison.scope === 'slot') {
    throw new ConfigurationError(
      `Condition on "${comparison.valueKey}" uses scope "slot" outside a repeat`,
    );
  }
  return comparison.valueKey;
};

/**
 * What is wrong with a comparison's operator or target, or null: the one check of both that the
 * format schema (at load) and the compiler (for a definition checked by the compiler only) run.
 */
export function comparisonProblem(comparison: {
  readonly operator: unknown;
  readonly target?: unknown;
}): string | null {
  const { operator, target } = comparison;
  if (typeof operator !== 'string' || !Object.hasOwn(OPERATOR_TARGETS, operator)) {
    return `Unknown condition operator ${JSON.stringify(operator)}`;
  }
  const wanted = OPERATOR_TARGETS[operator as keyof typeof OPERATOR_TARGETS];
  if (wanted === 'list' && !Array.isArray(target)) {
    return `Operator "${operator}" needs a list as its target`;
  }
  if (wanted === 'single' && (target === undefined || Array.isArray(target))) {
    return `Operator "${operator}" needs a single target value`;
  }
  return null;
}

/** Equality as a person means it: '2' equals 2, true equals 'true'. */
function sameValue(value: unknown, target: Scalar): boolean {
  if (value === target) return true;
  if (value === undefined || value === null || target === null) return false;
  const kind = typeof value;
  if (kind !== 'string' && kind !== 'number' && kind !== 'boolean') return false;
  return String(value) === String(target);
}

function assertComparison(comparison: Comparison): void {
  const problem = comparisonProblem(comparison);
  if (problem !== null) throw new ConfigurationError(`${problem} (on "${comparison.valueKey}")`);
}

// Only called on comparisons that passed assertComparison.
const targetList = (comparison: Comparison) => comparison.target as readonly Scalar[];
const scalarTarget = (comparison: Comparison) => comparison.target as Scalar;

function compareNumbers(
  value: unknown,
  comparison: Comparison,
  test: (a: number, b: number) => boolean,
) {
  if (isEmpty(value)) return false;
  const a = numberOf(value);
  const b = numberOf(scalarTarget(comparison));
  return !Number.isNaN(a) && !Number.isNaN(b) && test(a, b);
}

function evaluateComparison(
  comparison: Comparison,
  answers: Answers,
  resolve: KeyResolver,
): boolean {
  assertComparison(comparison);
  return compareChecked(comparison, readAnswer(answers, resolve(comparison)));
}

function compareChecked(comparison: Comparison, value: unknown): boolean {
  const operator = comparison.operator;
  switch (operator) {
    case 'equals':
      return sameValue(value, scalarTarget(comparison));
    case 'notEquals':
      return !sameValue(value, scalarTarget(comparison));
    case 'lt':
      return compareNumbers(value, comparison, (a, b) => a < b);
    case 'lte':
      return compareNumbers(value, comparison, (a, b) => a <= b);
    case 'gt':
      return compareNumbers(value, comparison, (a, b) => a > b);
    case 'gte':
      return compareNumbers(value, comparison, (a, b) => a >= b);
    case 'answered':
      return !isEmpty(value);
    case 'notAnswered':
      return isEmpty(value);
    case 'in':
      return targetList(comparison).some((target) => sameValue(value, target));
    case 'notIn':
      return !targetList(comparison).some((target) => sameValue(value, target));
    default:
      throw new ConfigurationError(
        `Unknown condition operator ${JSON.stringify(operator satisfies never)}`,
      );
  }
}

/**
 * Evaluates a conditional rule (SPEC 3.8) against the answers. An unknown operator or shape throws a
 * ConfigurationError: a condition never silently counts as true.
 */
export function evaluateCondition(
  condition: Condition,
  answers: Answers,
  resolve: KeyResolver = globalKey,
): boolean {
  if (typeof condition !== 'object' || condition === null) {
    throw new ConfigurationError(`A condition must be an object, got ${JSON.stringify(condition)}`);
  }
  if ('all' in condition) return condition.all.every((c) => evaluateCondition(c, answers, resolve));
  if ('any' in condition) return condition.any.some((c) => evaluateCondition(c, answers, resolve));
  if ('not' in condition) return !evaluateCondition(condition.not, answers, resolve);
  if ('valueKey' in condition && 'operator' in condition) {
    return evaluateComparison(condition, answers, resolve);
  }
  throw new ConfigurationError(`Unknown condition shape ${JSON.stringify(condition)}`);
}

/** Every answer key a condition reads (for dependency tracking and developer checks). */
export function conditionKeys(condition: Condition, resolve: KeyResolver = globalKey): string[] {
  if ('all' in condition) return condition.all.flatMap((c) => conditionKeys(c, resolve));
  if ('any' in condition) return condition.any.flatMap((c) => conditionKeys(c, resolve));
  if ('not' in condition) return conditionKeys(condition.not, resolve);
  return [resolve(condition)];
}

/** A condition compiled once into a closure, its keys resolved up front (the hot path). */
export type CompiledCondition = (answers: Answers) => boolean;

export function compileCondition(
  condition: Condition,
  resolve: KeyResolver = globalKey,
): CompiledCondition {
  if ('all' in condition) {
    const parts = condition.all.map((c) => compileCondition(c, resolve));
    return (answers) => parts.every((part) => part(answers));
  }
  if ('any' in condition) {
    const parts = condition.any.map((c) => compileCondition(c, resolve));
    return (answers) => parts.some((part) => part(answers));
  }
  if ('not' in condition) {
    const inner = compileCondition(condition.not, resolve);
    return (answers) => !inner(answers);
  }
  const key = internalized(resolve(condition));
  const read = answerReader(key);
  const comparison = condition;
  // Validate the operator and target now, so a bad condition fails at compile time.
  assertComparison(comparison);
  switch (comparison.operator) {
    case 'answered':
      return (answers) => !isEmpty(read(answers));
    case 'notAnswered':
      return (answers) => isEmpty(read(answers));
    case 'equals': {
      const target = scalarTarget(comparison);
      // The most common condition (a yes/no answered yes): its plain key read without a closure.
      if (!isPrototypeName(key)) return (answers) => sameValue(answers[key], target);
      return (answers) => sameValue(read(answers), target);
    }
    case 'notEquals': {
      const target = scalarTarget(comparison);
      return (answers) => !sameValue(read(answers), target);
    }
    default:
      return (answers) => compareChecked(comparison, read(answers));
  }
}
