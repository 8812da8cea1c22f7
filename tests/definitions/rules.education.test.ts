/**
 * SPEC 5.4 (Your Education): school, counselor, entry term and test scores. Messages typed
 * literally from SPEC.md; where the spec elides part of a message, the full string the definition
 * uses is asserted and the spec's part is asserted with `endsWith`.
 */
import { describe, expect, it } from 'vitest';
import { allErrors, errorsOf } from './fixtures';

describe('SPEC 5.4 school, counselor and entry term', () => {
  it('requires the high school', () => {
    expect(errorsOf('hs_name', { hs_name: '' })).toEqual(['Search for Your School']);
    expect(errorsOf('hs_name', { hs_name: undefined })).toEqual(['Search for Your School']);
  });

  it.each(['not-an-email', 'dana@', 'dana@school', 'dana reyes@example.org'])(
    'rejects counselor email %j',
    (value) => {
      expect(errorsOf('counselor_email_address', { counselor_email_address: value })).toEqual([
        'The counselor email address is invalid.',
      ]);
    },
  );

  it.each(['dana.reyes@example.org', ''])('accepts counselor email %j', (value) => {
    expect(errorsOf('counselor_email_address', { counselor_email_address: value })).toEqual([]);
  });

  it('requires the entry term ("--" counts as empty)', () => {
    for (const value of ['', '--', undefined]) {
      expect(errorsOf('entry_term', { entry_term: value })).toEqual([
        'When do you plan to enroll?',
      ]);
    }
  });
});

describe('SPEC 5.4 ACT scores', () => {
  const sections = [
    ['act_score_englih', 'English'],
    ['act_score_math', 'Math'],
    ['act_score_reading', 'Reading'],
    ['act_score_science', 'Science Reasoning'],
    ['act_score_composite', 'Composite'],
  ] as const;

  describe.each(sections)('%s (%s)', (key, section) => {
    const message = `Please provide a valid ACT ${section} Score. The score must be between 1 and 36.`;

    it.each([
      ['0', [message]],
      ['1', []],
      ['36', []],
      ['37', [message]],
      ['-1', [message]],
      ['18.5', [message]],
      ['abc', [message]],
      ['12abc', [message]],
      ['', []],
    ])('with the ACT taken, %j gives %j', (value, expected) => {
      expect(errorsOf(key, { act_taken: 'Y', [key]: value })).toEqual(expected);
    });

    it('accepts a score held as a number', () => {
      expect(errorsOf(key, { act_taken: 'Y', [key]: 36 })).toEqual([]);
      expect(errorsOf(key, { act_taken: 'Y', [key]: 37 })).toEqual([message]);
    });

    it.each(['N', 'P', ''])(
      'is hidden (no error for a bad value) when act_taken is %j',
      (taken) => {
        expect(errorsOf(key, { act_taken: taken, [key]: '99' })).toEqual([]);
      },
    );
  });

  it('spells the English score key act_score_englih', () => {
    const errors = allErrors({ act_taken: 'Y', act_score_englih: '40' });
    expect(errors).toEqual({
      act_score_englih: [
        'Please provide a valid ACT English Score. The score must be between 1 and 36.',
      ],
    });
  });

  it('reports no errors for bad hidden ACT scores anywhere in the form', () => {
    const bad = Object.fromEntries(sections.map(([key]) => [key, '99']));
    expect(allErrors({ act_taken: 'N', ...bad })).toEqual({});
  });
});

describe('SPEC 5.4 SAT scores', () => {
  const SPEC_TAIL = 'The score must be between 200 and 800 in an increment of 10 (e.g., 570).';
  const sections = [
    [
      'sat_score_reading_writing',
      'Please provide a valid SAT Evidence-Based Reading and Writing Score. The score must be between 200 and 800 in an increment of 10 (e.g., 570).',
    ],
    [
      'sat_score_math',
      'Please provide a valid SAT Math Score. The score must be between 200 and 800 in an increment of 10 (e.g., 570).',
    ],
  ] as const;

  describe.each(sections)('%s', (key, message) => {
    it('uses the full message, ending with the spec wording', () => {
      const errors = errorsOf(key, { sat_taken: 'Y', [key]: '190' });
      expect(errors).toEqual([message]);
      expect(errors[0]?.endsWith(SPEC_TAIL)).toBe(true);
    });

    it.each([
      ['190', [message]],
      ['200', []],
      ['210', []],
      ['570', []],
      ['575', [message]],
      ['800', []],
      ['805', [message]],
      ['810', [message]],
      ['0', [message]],
      ['abc', [message]],
      ['12abc', [message]],
      ['', []],
    ])('with the SAT taken, %j gives %j', (value, expected) => {
      expect(errorsOf(key, { sat_taken: 'Y', [key]: value })).toEqual(expected);
    });

    it.each(['N', 'P', ''])(
      'is hidden (no error for a bad value) when sat_taken is %j',
      (taken) => {
        expect(errorsOf(key, { sat_taken: taken, [key]: '575' })).toEqual([]);
      },
    );
  });

  const COMBINED =
    'Please provide a valid SAT Combined Score. The score must be between 400 and 1600.';

  it.each([
    ['399', [COMBINED]],
    ['400', []],
    ['1600', []],
    ['1601', [COMBINED]],
    ['abc', [COMBINED]],
    ['12abc', [COMBINED]],
    ['', []],
  ])('with the SAT taken, combined score %j gives %j', (value, expected) => {
    expect(errorsOf('sat_score_composite', { sat_taken: 'Y', sat_score_composite: value })).toEqual(
      expected,
    );
  });

  it('hides the combined score when sat_taken is N', () => {
    expect(errorsOf('sat_score_composite', { sat_taken: 'N', sat_score_composite: '1' })).toEqual(
      [],
    );
  });
});

describe('SPEC 5.4 CLT score', () => {
  const CLT = 'Please provide a valid CLT Score. The score must be between 0 to 120.';

  it.each([
    ['-1', [CLT]],
    ['0', []],
    ['120', []],
    ['121', [CLT]],
    ['abc', [CLT]],
    ['12abc', [CLT]],
    ['', []],
  ])('with the CLT taken, %j gives %j', (value, expected) => {
    expect(errorsOf('clt_score', { clt_taken: 'Y', clt_score: value })).toEqual(expected);
  });

  it.each(['N', 'P', ''])('is hidden (no error for a bad value) when clt_taken is %j', (taken) => {
    expect(errorsOf('clt_score', { clt_taken: taken, clt_score: '500' })).toEqual([]);
  });
});

describe('SPEC 5.4 test scores are optional', () => {
  it('accepts every test taken with no scores given', () => {
    const empty = {
      act_score_englih: '',
      act_score_math: '',
      act_score_reading: '',
      act_score_science: '',
      act_score_composite: '',
      sat_score_reading_writing: '',
      sat_score_math: '',
      sat_score_composite: '',
      clt_score: '',
    };
    expect(allErrors({ act_taken: 'Y', sat_taken: 'Y', clt_taken: 'Y', ...empty })).toEqual({});
  });
});
