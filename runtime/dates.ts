import type { RelativeDate } from './format';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD` (no time, so no time-zone shift). */
export function isIsoDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** `YYYY-MM-DD` of a date relative to the current year, so bounds compare as plain strings. */
export function relativeIsoDate(relative: RelativeDate, now: Date): string {
  const year = now.getFullYear() + relative.yearOffset;
  const day = Math.min(relative.day, daysInMonth(year, relative.month));
  return `${String(year).padStart(4, '0')}-${String(relative.month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * What a date question holds, in the form only, while its input shows something that is not a date
 * (02/30/2008, or a half-typed one): the `date` rule then reports the question's "valid date"
 * message. It is never stored: `storedAnswer` turns it into '' (SPEC 5.7 clears the stored answer).
 */
export const UNPARSABLE_DATE = 'unparsable-date';

/** The answer as it is saved: an unparsable date is saved empty; anything else as it is. */
export function storedAnswer<T>(value: T): T | '' {
  return value === UNPARSABLE_DATE ? '' : value;
}

/** `MM/DD/YYYY`, as the applicant entered the date (the US form of the date input), from ISO. */
export function usDate(iso: string): string {
  const match = ISO_DATE.exec(iso);
  return match ? `${match[2]}/${match[3]}/${match[1]}` : iso;
}
