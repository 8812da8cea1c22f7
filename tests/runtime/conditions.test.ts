import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  evaluateCondition,
  type Condition,
  type Operator,
} from '../../runtime';

const answers = {
  age: '17',
  score: 30,
  name: 'Ada',
  blank: '',
  dash: '--',
  yes: true,
  no: false,
  nothing: null,
};

describe('evaluateCondition', () => {
  it.each([
    ['equals', 'name', 'Ada', true],
    ['equals', 'name', 'ada', false],
    ['equals', 'age', 17, true],
    ['equals', 'yes', 'true', true],
    ['equals', 'missing', 'x', false],
    ['notEquals', 'name', 'Bob', true],
    ['notEquals', 'name', 'Ada', false],
    ['notEquals', 'missing', 'x', true],
  ] as const)('%s on %s against %j is %s', (operator, valueKey, target, expected) => {
    expect(evaluateCondition({ valueKey, operator, target }, answers)).toBe(expected);
  });

  it.each([
    ['lt', '17', 18, true],
    ['lt', '17', 17, false],
    ['lte', '17', 17, true],
    ['lte', '17', 16, false],
    ['gt', '17', 16, true],
    ['gt', '17', 17, false],
    ['gte', '17', '17', true],
    ['gte', '17', 18, false],
  ] as const)(
    '%s compares numeric strings numerically (%s vs %j → %s)',
    (operator, value, target, expected) => {
      expect(evaluateCondition({ valueKey: 'v', operator, target }, { v: value })).toBe(expected);
    },
  );

  it('compares numbers as numbers, not as text ("9" < "10")', () => {
    expect(evaluateCondition({ valueKey: 'v', operator: 'lt', target: '10' }, { v: '9' })).toBe(
      true,
    );
  });

  it('is false for numeric operators on empty or non-numeric values', () => {
    for (const operator of ['lt', 'lte', 'gt', 'gte'] as const) {
      expect(evaluateCondition({ valueKey: 'blank', operator, target: 0 }, answers)).toBe(false);
      expect(evaluateCondition({ valueKey: 'name', operator, target: 0 }, answers)).toBe(false);
      expect(evaluateCondition({ valueKey: 'missing', operator, target: 0 }, answers)).toBe(false);
    }
  });

  it('treats "", null, undefined, "--" and false as not answered', () => {
    for (const key of ['blank', 'dash', 'nothing', 'missing', 'no']) {
      expect(evaluateCondition({ valueKey: key, operator: 'answered' }, answers)).toBe(false);
      expect(evaluateCondition({ valueKey: key, operator: 'notAnswered' }, answers)).toBe(true);
    }
    for (const key of ['name', 'score', 'yes', 'age']) {
      expect(evaluateCondition({ valueKey: key, operator: 'answered' }, answers)).toBe(true);
      expect(evaluateCondition({ valueKey: key, operator: 'notAnswered' }, answers)).toBe(false);
    }
  });

  it('checks membership with in and notIn', () => {
    expect(
      evaluateCondition({ valueKey: 'name', operator: 'in', target: ['Ada', 'Bob'] }, answers),
    ).toBe(true);
    expect(evaluateCondition({ valueKey: 'name', operator: 'in', target: ['Bob'] }, answers)).toBe(
      false,
    );
    expect(evaluateCondition({ valueKey: 'score', operator: 'in', target: ['30'] }, answers)).toBe(
      true,
    );
    expect(
      evaluateCondition({ valueKey: 'name', operator: 'notIn', target: ['Bob'] }, answers),
    ).toBe(true);
    expect(
      evaluateCondition({ valueKey: 'missing', operator: 'notIn', target: ['Bob'] }, answers),
    ).toBe(true);
    expect(
      evaluateCondition({ valueKey: 'name', operator: 'notIn', target: ['Ada'] }, answers),
    ).toBe(false);
  });

  it('combines conditions with all, any and not', () => {
    const adult: Condition = { valueKey: 'age', operator: 'gte', target: 18 };
    const ada: Condition = { valueKey: 'name', operator: 'equals', target: 'Ada' };
    expect(evaluateCondition({ all: [adult, ada] }, answers)).toBe(false);
    expect(evaluateCondition({ any: [adult, ada] }, answers)).toBe(true);
    expect(evaluateCondition({ not: adult }, answers)).toBe(true);
  });

  it('throws a configuration error for an unknown operator instead of counting it as true', () => {
    const bad = { valueKey: 'name', operator: 'contains' as Operator, target: 'A' };
    expect(() => evaluateCondition(bad, answers)).toThrow(ConfigurationError);
    expect(() => evaluateCondition(bad, answers)).toThrow('Unknown condition operator "contains"');
  });

  it('throws for a condition of unknown shape and for list operators without a list', () => {
    expect(() => evaluateCondition({ when: 'x' } as unknown as Condition, answers)).toThrow(
      ConfigurationError,
    );
    expect(() =>
      evaluateCondition({ valueKey: 'name', operator: 'in', target: 'Ada' }, answers),
    ).toThrow('needs a list as its target');
  });

  it('never reads the prototype chain', () => {
    expect(evaluateCondition({ valueKey: 'constructor', operator: 'answered' }, {})).toBe(false);
    expect(evaluateCondition({ valueKey: 'toString', operator: 'answered' }, {})).toBe(false);
  });
});
