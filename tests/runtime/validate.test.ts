import { describe, expect, it } from 'vitest';
import {
  answerProblems,
  answersStandardSchema,
  canSubmit,
  formLevelValidator,
  validateAnswers,
  validateField,
} from '../../runtime';
import { miniDefinition } from '../fixtures/miniDefinition';

const now = new Date(2026, 5, 15);
const valid = { name: 'Ada', start_month: '3', start_year: '2021', agree: true };

describe('validateAnswers', () => {
  it('accepts a complete answer map', () => {
    expect(validateAnswers(miniDefinition, valid, { now })).toEqual({ errors: {}, byPage: {} });
    expect(canSubmit(miniDefinition, valid, { now })).toBe(true);
  });

  it("enforces a question's own maxLength as the server's shape check does", () => {
    const limited = structuredClone(miniDefinition) as any;
    limited.pages[0].children[0].maxLength = 5;
    expect(limited.pages[0].children[0]).toMatchObject({ kind: 'text', key: 'name' });
    const long = { ...valid, name: 'Adalovelace' };
    expect(validateAnswers(limited, long, { now }).errors).toEqual({
      name: ['name must be at most 5 characters'],
    });
    expect(validateField(limited, long, 'name', { now })).toEqual([
      'name must be at most 5 characters',
    ]);
    expect(answerProblems(limited, long)).toEqual([{ key: 'name', reason: 'tooLong' }]);
    // Characters as the applicant sees them: five accented letters typed as ten code points fit.
    const accented = { ...valid, name: 'e\u0301'.repeat(5) };
    expect(validateAnswers(limited, accented, { now }).errors).toEqual({});
    expect(answerProblems(limited, accented)).toEqual([]);
  });

  it('collects every error at once, grouped per key and per page', () => {
    const result = validateAnswers(miniDefinition, {}, { now });
    expect(result.errors).toEqual({
      name: ['name is a required field'],
      start_month: ['Start date needed.'],
      agree: ['agree is a required field'],
    });
    expect(result.byPage).toEqual({
      one: { name: ['name is a required field'] },
      two: { start_month: ['Start date needed.'], agree: ['agree is a required field'] },
    });
    expect(canSubmit(miniDefinition, {}, { now })).toBe(false);
  });

  it('uses "<path> is a required field" where a rule has no message', () => {
    expect(validateAnswers(miniDefinition, { ...valid, name: '--' }, { now }).errors.name).toEqual([
      'name is a required field',
    ]);
  });

  it('treats an answer of white space only as missing for required rules', () => {
    expect(
      validateAnswers(miniDefinition, { ...valid, name: ' \t ' }, { now }).errors.name,
    ).toEqual(['name is a required field']);
    expect(validateAnswers(miniDefinition, { ...valid, name: ' Ada ' }, { now }).errors).toEqual(
      {},
    );
  });

  it('combines the month and year errors of a month/year question under the month key, once', () => {
    const result = validateAnswers(
      miniDefinition,
      { ...valid, start_month: '13', start_year: '' },
      { now },
    );
    expect(result.errors).toEqual({ start_month: ['Start date needed.'] });
    expect(result.errors.start_year).toBeUndefined();
  });

  it('does not validate hidden questions', () => {
    expect(validateAnswers(miniDefinition, { ...valid, has_pets: 'N' }, { now }).errors).toEqual(
      {},
    );
    expect(validateAnswers(miniDefinition, { ...valid, has_pets: 'Y' }, { now }).errors).toEqual({
      pet_name: ['Name your pet.'],
    });
    expect(validateAnswers(miniDefinition, { ...valid, travel: 'Y' }, { now }).errors).toEqual({
      destination: ['Where to?'],
    });
  });

  it('validates add-another instances only while shown, with per-slot messages', () => {
    const answers = { ...valid, person_email: 'bad', person_2_email: 'bad' };
    expect(validateAnswers(miniDefinition, answers, { now }).errors).toEqual({
      person_email: ['Person 1: bad email'],
      person_2_email: ['Person 2: bad email.'],
    });
    expect(
      validateAnswers(
        miniDefinition,
        { ...valid, person_email: 'bad' },
        { now, addAnother: { person: 1 } },
      ).errors,
    ).toEqual({
      person_email: ['Person 1: bad email'],
    });
  });

  it('evaluates slot-scoped conditions against the slot', () => {
    const answers = { ...valid, person_works: 'N', person_2_works: 'Y' };
    expect(
      validateAnswers(miniDefinition, answers, { now, addAnother: { person: 2 } }).errors,
    ).toEqual({
      person_2_employer: ['Employer needed.'],
    });
  });

  it('fails text rules on values that are not text', () => {
    expect(validateAnswers(miniDefinition, { ...valid, when: { day: 1 } }, { now }).errors).toEqual(
      { when: ['Bad date.'] },
    );
    expect(
      validateAnswers(miniDefinition, { ...valid, when: '2026-02-29' }, { now }).errors,
    ).toEqual({ when: ['Bad date.'] });
    expect(
      validateAnswers(miniDefinition, { ...valid, when: '2028-02-29' }, { now }).errors,
    ).toEqual({});
  });

  it('treats anything but a plain object as no answers', () => {
    for (const input of [null, undefined, 'x', 42, []]) {
      expect(Object.keys(validateAnswers(miniDefinition, input, { now }).errors).sort()).toEqual([
        'agree',
        'name',
        'start_month',
      ]);
    }
  });
});

describe('validateField', () => {
  it('returns the errors of one question', () => {
    expect(validateField(miniDefinition, {}, 'name', { now })).toEqual([
      'name is a required field',
    ]);
    expect(validateField(miniDefinition, { name: 'Ada' }, 'name', { now })).toEqual([]);
  });

  it('answers for either key of a month/year question', () => {
    expect(validateField(miniDefinition, { start_month: '2' }, 'start_year', { now })).toEqual([
      'Start date needed.',
    ]);
  });

  it('returns nothing for hidden or unknown keys', () => {
    expect(validateField(miniDefinition, {}, 'pet_name', { now })).toEqual([]);
    expect(validateField(miniDefinition, {}, 'no_such_key', { now })).toEqual([]);
  });
});

describe('Standard Schema and form-level validator', () => {
  it('reports issues with the key as path, or the value when valid', () => {
    const schema = answersStandardSchema(miniDefinition, { now });
    expect(schema['~standard'].vendor).toBe('admission-runtime');
    expect(schema['~standard'].validate({ ...valid, name: '' })).toEqual({
      issues: [{ message: 'name is a required field', path: ['name'] }],
    });
    expect(schema['~standard'].validate(valid)).toEqual({ value: valid });
  });

  it('gives TanStack Form a { fields } map with the first message per key', () => {
    const validator = formLevelValidator(miniDefinition, () => ({ now }));
    expect(validator({ value: {} })).toEqual({
      fields: {
        name: 'name is a required field',
        start_month: 'Start date needed.',
        agree: 'agree is a required field',
      },
    });
    expect(validator({ value: valid })).toBeUndefined();
  });
});
