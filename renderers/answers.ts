/**
 * Reading answers, shared by every renderer set (interactive and print): an answer may be undefined,
 * null, '--', a number or a boolean, and each set shows it the same way.
 */
import { BLANK, optionLabel, usDate, type OptionEntry } from '../runtime';

/** The text of an answer: '' for empty, blank or non-text values. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value === BLANK ? '' : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

/** A check box answer: `true` or the string 'true' (answers saved as text) is checked. */
export function isChecked(value: unknown): boolean {
  return value === true || value === 'true';
}

/** A date answer as the applicant typed it, MM/DD/YYYY; a value that is not a date as itself. */
export function dateText(value: unknown): string {
  const text = textOf(value);
  return text ? usDate(text) : text;
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

/**
 * A choice shows its `_desc` label (SPEC 2.9), or the label of the option list when no description
 * was stored; a code the list does not know shows as itself rather than vanishing.
 */
export function choiceText(
  value: unknown,
  description: unknown,
  options: readonly OptionEntry[] | null,
): string {
  const desc = textOf(description);
  if (desc !== '') return desc;
  const code = textOf(value);
  if (code === '') return '';
  return optionLabel(options ?? [], code) || code;
}

/** Month label and year, e.g. "May 2026"; either part alone when only one was given. */
export function monthYearText(
  month: unknown,
  year: unknown,
  months: readonly OptionEntry[] | null,
): string {
  const monthText = choiceText(month, undefined, months);
  return [monthText, textOf(year)].filter((part) => part !== '').join(' ');
}
