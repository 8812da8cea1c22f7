import type { Question, RelativeDate } from './format';

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
 * A question's answer as it is saved. In the form a date question holds the text typed while it is
 * not a date yet (02/30/2008, 03/1), which its `date` rule reports with the question's own message;
 * it is never saved: anything but an ISO date is saved as '' (SPEC 5.7 clears the stored answer).
 */
export function storedAnswer<T>(value: T, kind: Question['kind'] | undefined): T | '' {
  if (kind !== 'date' || value === null || value === '') return value;
  return typeof value === 'string' && isIsoDate(value) ? value : '';
}

const US_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/** ISO `YYYY-MM-DD` of a real date written `MM/DD/YYYY`; null for anything else. */
export function isoFromUsDate(text: string): string | null {
  const match = US_DATE.exec(text);
  if (!match) return null;
  const iso = `${match[3]}-${match[1]}-${match[2]}`;
  return isIsoDate(iso) ? iso : null;
}

/** `MM/DD/YYYY`, as the applicant entered the date (the US form of the date input), from ISO. */
export function usDate(iso: string): string {
  const match = ISO_DATE.exec(iso);
  return match ? `${match[2]}/${match[3]}/${match[1]}` : iso;
}
