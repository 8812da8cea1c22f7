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

export function textLength(text: string): number {
  // Text of single-unit characters only (most of it) counts without segmenting.
  // eslint-disable-next-line no-control-regex
  if (/^[\u0000-\u000c\u000e-\u02ff]*$/.test(text)) return text.length;
  let count = 0;
  for (const _ of segmenter.segment(text)) count += 1;
  return count;
}

/** True when the text fits a limit of `max` characters (and its code-unit backstop). */
export function withinLength(text: string, max: number): boolean {
  if (text.length <= max) return true; // never more characters than code units
  return text.length <= max * MAX_UNITS_PER_CHARACTER && textLength(text) <= max;
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
