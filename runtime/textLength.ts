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

/** What the scan could not classify: Intl.Segmenter counts that text. */
const UNKNOWN = -1;

/**
 * Characters that start a cluster of their own and may take combining marks (Unicode's grapheme
 * break class Other): Latin, Greek, Cyrillic, Vietnamese letters, punctuation, currency, CJK.
 */
function startsCluster(unit: number): boolean {
  return (
    (unit >= 0x20 && unit < 0x7f) ||
    (unit >= 0xa0 && unit < 0x300 && unit !== 0xad) ||
    (unit >= 0x370 && unit <= 0x482) ||
    (unit >= 0x48a && unit <= 0x52f) ||
    (unit >= 0x1e00 && unit <= 0x1eff) ||
    (unit >= 0x2010 && unit <= 0x2027) ||
    (unit >= 0x2030 && unit <= 0x205e) ||
    (unit >= 0x20a0 && unit <= 0x20c0) ||
    (unit >= 0x4e00 && unit <= 0x9fff)
  );
}

/** Combining marks (class Extend): they join the cluster before them, if it takes marks. */
function extendsCluster(unit: number): boolean {
  return (
    (unit >= 0x300 && unit <= 0x36f) ||
    (unit >= 0x483 && unit <= 0x489) ||
    (unit >= 0xfe00 && unit <= 0xfe0f)
  );
}

/**
 * The characters of common text counted up to `limit` by one pass over its code units, without
 * Intl.Segmenter (which costs microseconds a call); UNKNOWN when a unit needs the full rules (joiners,
 * flags, Indic or Hangul scripts, ...). Agrees with the segmenter wherever it answers (tested).
 */
function scanUpTo(text: string, limit: number): number {
  let count = 0;
  let takesMarks = false; // the cluster before may absorb a combining mark (not after a control)
  for (let i = 0; i < text.length && count < limit; i++) {
    const unit = text.charCodeAt(i);
    if (startsCluster(unit)) {
      count++;
      takesMarks = true;
    } else if (extendsCluster(unit)) {
      if (!takesMarks) count++;
      takesMarks = true;
    } else if (unit < 0x20 || (unit >= 0x7f && unit < 0xa0) || unit === 0xad) {
      if (unit === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++; // CR LF is one character
      count++;
      takesMarks = false;
    } else if (unit >= 0xd800 && unit < 0xdc00) {
      const point = text.codePointAt(i)!;
      if (point >= 0x1f3fb && point <= 0x1f3ff) {
        if (!takesMarks) count++; // skin tone modifiers are combining (class Extend)
      } else if (
        (point >= 0x1f300 && point <= 0x1f64f) ||
        (point >= 0x1f680 && point <= 0x1f6ff) ||
        (point >= 0x1f900 && point <= 0x1f9ff)
      ) {
        count++; // pictographs: one character unless a joiner follows (which is UNKNOWN)
      } else return UNKNOWN;
      takesMarks = true;
      i++;
    } else return UNKNOWN;
  }
  return count;
}

/** The characters counted up to `limit`: the exact count below it, else `limit` (bounded work). */
function countUpTo(text: string, limit: number): number {
  const scanned = scanUpTo(text, limit);
  if (scanned !== UNKNOWN) return scanned;
  let count = 0;
  for (const _ of segmenter.segment(text)) if (++count >= limit) break;
  return count;
}

export function textLength(text: string): number {
  return countUpTo(text, Number.POSITIVE_INFINITY);
}

/** True when the text fits a limit of `max` characters (and its code-unit backstop). */
export function withinLength(text: string, max: number): boolean {
  if (text.length <= max) return true; // never more characters than code units
  if (text.length > max * MAX_UNITS_PER_CHARACTER) return false;
  return countUpTo(text, max + 1) <= max;
}

/** True when the text holds at least `min` characters (what a minLength rule asks). */
export function atLeastLength(text: string, min: number): boolean {
  if (text.length < min) return false; // never more characters than code units
  return countUpTo(text, min) >= min;
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
