/**
 * SPEC 5.7: a text area's limit counts what the applicant sees, and the server's shape check (the
 * limit that refuses a save) counts the same way as the counter.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerProblems,
  loadDefinition,
  MAX_UNITS_PER_CHARACTER,
  textLength,
  truncateToLength,
  validateAnswers,
  withinLength,
} from '../../runtime';
import { applicationDefinition, institutionConfig } from '../../definitions';

const FAMILY = '👨‍👩‍👧‍👦'; // 7 code points, 11 code units, one character
const FLAG = '🇫🇷';
const ACCENTED = 'e\u0301'; // e + combining acute

describe('textLength', () => {
  it('counts an emoji, a flag and a letter with a combining accent as one character each', () => {
    expect(FAMILY.length).toBe(11);
    expect(textLength(FAMILY)).toBe(1);
    expect(textLength(FLAG)).toBe(1);
    expect(textLength(ACCENTED)).toBe(1);
    expect(textLength(`ab${FAMILY}${FLAG}${ACCENTED}c`)).toBe(6);
    expect(textLength('plain text\nwith a newline')).toBe(25);
    expect(textLength('a\r\nb')).toBe(3);
  });

  it('cuts at the limit without splitting a character', () => {
    expect(truncateToLength(`${FAMILY}${FAMILY}${FAMILY}`, 2)).toBe(`${FAMILY}${FAMILY}`);
    expect(truncateToLength('abc', 5)).toBe('abc');
  });

  it('refuses a crafted text of few characters and many code units (combining marks)', () => {
    const heavy = `a${'\u0301'.repeat(50)}`;
    expect(textLength(heavy)).toBe(1);
    expect(withinLength(heavy, 1)).toBe(false);
    expect(withinLength('a'.repeat(5), 5)).toBe(true);
    expect(MAX_UNITS_PER_CHARACTER).toBeGreaterThanOrEqual(FAMILY.length);
  });
});

describe('the server limit of an essay agrees with the counter', () => {
  const limit = institutionConfig.character_limit;
  const problemsOf = (text: string) =>
    answerProblems(applicationDefinition, { conviction_comment: text });

  it(`accepts ${limit} emoji (more code units than the limit) and refuses one more`, () => {
    expect(problemsOf('😀'.repeat(limit))).toEqual([]);
    expect(problemsOf('😀'.repeat(limit + 1))).toEqual([
      { key: 'conviction_comment', reason: 'tooLong' },
    ]);
    expect(problemsOf(`${FAMILY}`.repeat(limit / 2))).toEqual([]);
  });
});

describe('length limits stop counting at the limit and agree with a full count', () => {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const fullCount = (text: string) => [...segmenter.segment(text)].length;
  // Plain text, accented and combining letters, CR LF, emoji sequences and flags, mixed.
  const pieces = fc.constantFrom(
    'a',
    'Z',
    ' ',
    'é',
    'e\u0301',
    'ễ',
    '’',
    '\r\n',
    '\r',
    FAMILY,
    FLAG,
    'Nguyễn',
    '🌱',
    '🏻',
    '\uFE0F',
    '\u0483',
    'Жук',
    '中文',
    '—',
    '\u00AD',
    '\n',
    '\u0085',
  );
  const text = fc.oneof(
    fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join('')),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );
  const limit = fc.integer({ min: 0, max: 45 });

  it('withinLength holds exactly when the full count fits (code-unit backstop aside)', () => {
    fc.assert(
      fc.property(text, limit, (t, max) => {
        const expected =
          t.length <= max || (t.length <= max * MAX_UNITS_PER_CHARACTER && fullCount(t) <= max);
        expect(withinLength(t, max)).toBe(expected);
        expect(textLength(t)).toBe(fullCount(t));
      }),
      { numRuns: 2000 },
    );
  });

  it('counts each character the fast scan classifies as the segmenter does, marks and controls around it', () => {
    const ranges: [number, number][] = [
      [0, 0x530],
      [0x1e00, 0x1f00],
      [0x2000, 0x20d0],
      [0x4e00, 0xa000],
      [0xfe00, 0xfe10],
      [0x1f300, 0x1fa00],
    ];
    const mismatches: string[] = [];
    for (const [from, to] of ranges)
      for (let point = from; point < to; point++) {
        const c = String.fromCodePoint(point);
        for (const t of [`${c}\u0301${c}`, `\u0301${c}\n${c}🏻`])
          if (textLength(t) !== fullCount(t)) mismatches.push(point.toString(16));
      }
    expect(mismatches).toEqual([]);
  });

  it('a minLength rule fails exactly when the full count is below its minimum', () => {
    const definition = loadDefinition({
      id: 'min-length',
      title: 'Minimum length',
      version: 1,
      defaultRoute: '/one',
      optionLists: {},
      pages: [
        {
          id: 'one',
          path: '/one',
          title: 'One',
          children: [1, 2, 5, 20].map((min) => ({
            kind: 'textarea',
            key: `at_least_${min}`,
            label: `At least ${min}`,
            rules: [{ kind: 'minLength', min, message: `at least ${min}` }],
          })),
        },
      ],
    });
    fc.assert(
      fc.property(
        text.filter((t) => t !== ''),
        (t) => {
          const answers = { at_least_1: t, at_least_2: t, at_least_5: t, at_least_20: t };
          const { errors } = validateAnswers(definition, answers);
          for (const min of [1, 2, 5, 20])
            expect(errors[`at_least_${min}`] ?? []).toEqual(
              fullCount(t) >= min ? [] : [`at least ${min}`],
            );
        },
      ),
      { numRuns: 1000 },
    );
  });
});
