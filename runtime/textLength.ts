/**
 * The length of a text as the applicant sees it: user-perceived characters (grapheme clusters), so
 * an emoji, a flag or an accented letter typed as two code points is one character. The counter of
 * a text area and the server's limit both use it (SPEC 5.7).
 */
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A character may hold several code units (a family emoji holds 11), so a limit on characters alone
 * would let a crafted text of combining marks grow without bound: past this many code units per
 * character allowed, a text is too long whatever its count. No typed text comes near it.
 */
export const MAX_UNITS_PER_CHARACTER = 16;

/**
 * Text of single-unit characters only (most of it): below U+0300, where combining marks start, and
 * without CR (CR LF is one character), each code unit is one character.
 */
// eslint-disable-next-line no-control-regex
const SINGLE_UNITS = /^[\u0000-\u000c\u000e-\u02ff]*$/;

/** The characters counted up to `limit`: the exact count below it, else `limit` (bounded work). */
function countUpTo(text: string, limit: number): number {
  let count = 0;
  for (const _ of segmenter.segment(text)) if (++count >= limit) break;
  return count;
}

export function textLength(text: string): number {
  return SINGLE_UNITS.test(text) ? text.length : countUpTo(text, Number.POSITIVE_INFINITY);
}

/** True when the text fits a limit of `max` characters (and its code-unit backstop). */
export function withinLength(text: string, max: number): boolean {
  if (text.length <= max) return true; // never more characters than code units
  if (text.length > max * MAX_UNITS_PER_CHARACTER || SINGLE_UNITS.test(text)) return false;
  return countUpTo(text, max + 1) <= max;
}

/** True when the text holds at least `min` characters (what a minLength rule asks). */
export function atLeastLength(text: string, min: number): boolean {
  if (text.length < min) return false; // never more characters than code units
  return SINGLE_UNITS.test(text) || countUpTo(text, min) >= min;
}

/** The text cut to at most `max` characters (what a pasted text keeps). */
export function truncateToLength(text: string, max: number): string {
  if (withinLength(text, max)) return text;
  let out = '';
  let count = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (count === max || out.length + segment.length > max * MAX_UNITS_PER_CHARACTER) break;
    out += segment;
    count += 1;
  }
  return out;
}
