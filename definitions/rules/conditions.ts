/** Small builders for condition data, so pages read like the spec. */
import type { Comparison, Condition, Scalar } from '../../runtime';

export const eq = (valueKey: string, target: Scalar): Comparison => ({
  valueKey,
  operator: 'equals',
  target,
});
export const isIn = (valueKey: string, target: readonly Scalar[]): Comparison => ({
  valueKey,
  operator: 'in',
  target,
});
export const notIn = (valueKey: string, target: readonly Scalar[]): Comparison => ({
  valueKey,
  operator: 'notIn',
  target,
});
export const answered = (valueKey: string): Comparison => ({ valueKey, operator: 'answered' });
export const notAnswered = (valueKey: string): Comparison => ({
  valueKey,
  operator: 'notAnswered',
});
export const all = (...conditions: Condition[]): Condition => ({ all: conditions });

/** The same comparison on the current repeat slot's key. */
export const inSlot = (comparison: Comparison): Comparison => ({ ...comparison, scope: 'slot' });
