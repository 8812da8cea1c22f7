/**
 * How an instant is written for people, everywhere (D197): in the college's time zone (its
 * institution file's `time_zone`, UTC when it names none), the zone always named. The completion
 * page, the staff console, the mails, the PDF and the CSV's people columns all call these, so an
 * applicant reading the completion page and an officer reading the console or the receipt see the
 * same words; never the browser's zone, never the server's.
 *
 * Built from `formatToParts`, not `format`: the joining words differ between ICU versions ("at" or
 * a comma, a narrow no-break space before "PM"), and the browser's ICU is not the server's.
 */

type Part = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'dayPeriod' | 'timeZoneName';

const WORDS: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hourCycle: 'h12',
  timeZoneName: 'short',
};
const DIGITS: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };

const formats = new Map<string, Intl.DateTimeFormat>();

/** The parts of an instant in a zone; each zone's formatter made once (an export formats thousands). */
function partsOf(
  at: Date | string,
  timeZone: string,
  style: 'words' | 'digits',
): Record<Part, string> {
  const key = `${style} ${timeZone}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      ...(style === 'words' ? WORDS : DIGITS),
      timeZone,
    });
    formats.set(key, format);
  }
  const parts = format.formatToParts(typeof at === 'string' ? new Date(at) : at);
  return Object.fromEntries(parts.map((part) => [part.type, part.value])) as Record<Part, string>;
}

/** "January 3, 2027, 1:20 PM EST": date, minute and zone, as read out on the phone. */
export function collegeTime(at: Date | string, timeZone: string): string {
  const p = partsOf(at, timeZone, 'words');
  return `${p.month} ${p.day}, ${p.year}, ${p.hour}:${p.minute} ${p.dayPeriod} ${p.timeZoneName}`;
}

/** "January 3, 2027": the college's calendar day of an instant, in words (a date without a time). */
export function collegeDate(at: Date | string, timeZone: string): string {
  const p = partsOf(at, timeZone, 'words');
  return `${p.month} ${p.day}, ${p.year}`;
}

/**
 * "2027-01-03": the college's calendar day of an instant as a day filter takes it and a file name
 * carries it (the day `collegeDate` writes in words).
 */
export function collegeDay(at: Date | string, timeZone: string): string {
  const p = partsOf(at, timeZone, 'digits');
  return `${p.year}-${p.month}-${p.day}`;
}
