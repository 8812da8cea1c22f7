/** Reading answers defensively: an answer may be undefined, null, '--', a number or a boolean. */
import { BLANK } from '../../runtime';

/** The text of an answer for a text-like input: '' for empty, blank or non-text values. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value === BLANK ? '' : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

/** A check box answer: `true` or the string 'true' (answers saved as text) is checked. */
export function isChecked(value: unknown): boolean {
  return value === true || value === 'true';
}

/** The digits of a text, at most `max` of them. */
export function digitsOf(text: string, max: number): string {
  return text.replace(/\D/g, '').slice(0, max);
}

/**
 * Formats digits with a `#` pattern, stopping after the last digit: `(###) ###-####` gives
 * `(212) 555-0123` for ten digits and `(212) 55` for five; no digits give ''.
 */
export function formatDigits(digits: string, pattern: string): string {
  let out = '';
  let next = 0;
  for (const char of pattern) {
    if (next >= digits.length) break;
    if (char === '#') out += digits[next++];
    else out += char;
  }
  return out;
}

/** How many `#` a pattern holds. */
export function digitCount(pattern: string): number {
  return pattern.split('').filter((char) => char === '#').length;
}
