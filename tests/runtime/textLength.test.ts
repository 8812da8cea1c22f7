/**
 * SPEC 5.7: a text area's limit counts what the applicant sees, and the server's shape check (the
 * limit that refuses a save) counts the same way as the counter.
 */
import { describe, expect, it } from 'vitest';
import {
  answerProblems,
  MAX_UNITS_PER_CHARACTER,
  textLength,
  truncateToLength,
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
