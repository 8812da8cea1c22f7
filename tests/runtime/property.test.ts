import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerProblems,
  applyClearing,
  dataModelKeys,
  keysToClear,
  validateAnswers,
  validateField,
  visibleView,
} from '../../runtime';
import { compile } from '../../runtime/internal';
import { applicationDefinition } from '../../definitions';

const modelKeys = dataModelKeys(applicationDefinition);
const modelKeySet = new Set(modelKeys);
const hostileKeys = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
];

const anyKey = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...modelKeys) },
  { weight: 2, arbitrary: fc.constantFrom(...hostileKeys) },
  { weight: 1, arbitrary: fc.string() },
);
const anyValue = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '',
    '--',
    'Y',
    'N',
    'M',
    'F',
    'USA',
    'CAN',
    '1',
    '2',
    '3',
    'ANSWERED',
    '2000-01-01',
    '(212) 555-1234',
  ),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.integer(),
  fc.double(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 2 }),
);

/** Builds the map with defineProperty so `__proto__` becomes an own key, as JSON.parse makes it. */
const answerMap = fc.array(fc.tuple(anyKey, anyValue), { maxLength: 40 }).map((entries) => {
  const map: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    Object.defineProperty(map, key, {
      value,
      enumerable: true,
      configurable: true,
      writable: true,
    });
  }
  return map;
});

const state = fc.record({
  addAnother: fc.dictionary(
    fc.constantFrom('parent', 'legacy', 'college', 'activity', 'honors', '__proto__'),
    fc.integer({ min: -5, max: 20 }),
  ),
  tabs: fc.dictionary(
    fc.constantFrom('transcript', 'constructor'),
    fc.constantFrom('upload', 'counselor', 'fax'),
  ),
});

const now = new Date(2026, 5, 15);

describe('the runtime on random, hostile answer maps (fast-check)', () => {
  it('full validation agrees key by key with one-field validation, whatever it validated before', () => {
    const checkedKeys = compile(applicationDefinition).checkedByKey.map((group) => group.key);
    fc.assert(
      fc.property(fc.array(fc.tuple(answerMap, state), { minLength: 2, maxLength: 4 }), (runs) => {
        for (const [answers, viewState] of runs) {
          const options = { now, ...viewState };
          const { errors } = validateAnswers(applicationDefinition, answers, options);
          for (const key of checkedKeys)
            expect(errors[key] ?? [], key).toEqual(
              validateField(applicationDefinition, answers, key, options),
            );
        }
      }),
      { numRuns: 150 },
    );
  });

  it('never throws and never reports an error for a key outside the data model', () => {
    fc.assert(
      fc.property(answerMap, state, (answers, viewState) => {
        const { errors, byPage } = validateAnswers(applicationDefinition, answers, {
          now,
          ...viewState,
        });
        for (const key of Object.keys(errors)) expect(modelKeySet.has(key), key).toBe(true);
        for (const page of Object.values(byPage))
          for (const key of Object.keys(page)) expect(modelKeySet.has(key)).toBe(true);
        for (const messages of Object.values(errors)) {
          expect(messages.length).toBeGreaterThan(0);
          expect(new Set(messages).size).toBe(messages.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('computes the view, clearing and the shape check without throwing', () => {
    fc.assert(
      fc.property(answerMap, answerMap, state, (before, after, viewState) => {
        visibleView(applicationDefinition, after, { now, ...viewState });
        for (const key of keysToClear(applicationDefinition, before, after, viewState))
          expect(modelKeySet.has(key)).toBe(true);
        const { answers } = applyClearing(applicationDefinition, before, after, viewState);
        expect(keysToClear(applicationDefinition, answers, answers, viewState)).toEqual([]);
        for (const problem of answerProblems(applicationDefinition, after))
          expect(typeof problem.key).toBe('string');
        for (const key of hostileKeys) validateField(applicationDefinition, after, key, { now });
      }),
      { numRuns: 200 },
    );
  });

  it('flags every hostile key in the shape check and leaves Object.prototype untouched', () => {
    fc.assert(
      fc.property(answerMap, (answers) => {
        const unknown = new Set(
          answerProblems(applicationDefinition, answers)
            .filter((p) => p.reason === 'unknownKey')
            .map((p) => p.key),
        );
        for (const key of Object.keys(answers))
          if (!modelKeySet.has(key)) expect(unknown.has(key)).toBe(true);
      }),
      { numRuns: 200 },
    );
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});
