/**
 * Reading answers, shared by every renderer set (interactive and print): an answer may be undefined,
 * null, '--', a number or a boolean, and each set shows it the same way.
 */
import { BLANK, isoFromUsDate, optionLabel, usDate, type OptionEntry } from '../runtime';

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

/**
 * The answer of a date typed as MM/DD/YYYY: ISO `YYYY-MM-DD` for a real date, '' for nothing, and
 * otherwise the text itself (02/30/2008, 03/1), which the `date` rule reports and which is never saved.
 */
export function dateAnswer(text: string): string {
  return isoFromUsDate(text) ?? text;
}

const PASTED_ISO = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$/;

/**
 * The digits (MMDDYYYY) of what was typed or pasted into a date field, read as a person writes a
 * date: an ISO date (2008-03-15) as that date, and a one-digit month or day followed by a slash
 * ("3/15/2008", "3/") with its leading zero. `before`: the digits before the caret. Null when
 * neither applies (the digits are read as they stand).
 */
export function dateEntryDigits(
  raw: string,
  caret: number,
): { digits: string; before: number } | null {
  const iso = PASTED_ISO.exec(raw);
  if (iso) {
    const digits = `${(iso[2] as string).padStart(2, '0')}${(iso[3] as string).padStart(2, '0')}${iso[1] as string}`;
    return { digits, before: digits.length };
  }
  const groups = raw.split('/');
  let digits = '';
  let before: number | null = null;
  let padded = false;
  let start = 0;
  groups.forEach((group, index) => {
    const own = group.replace(/\D/g, '');
    const zero = index < groups.length - 1 && own.length === 1 ? '0' : '';
    if (zero) padded = true;
    if (before === null && caret <= start + group.length)
      before =
        digits.length + zero.length + group.slice(0, caret - start).replace(/\D/g, '').length;
    digits += zero + own;
    start += group.length + 1;
  });
  return padded ? { digits, before: before ?? digits.length } : null;
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
