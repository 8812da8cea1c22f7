/**
 * The console's days and times are the institution's (`time_zone` in its file, D156): a day filter
 * starts at local midnight, and a file shows local times to the minute.
 */
import { sql, type SQL } from 'drizzle-orm';

/** The instant `day` (`yyyy-mm-dd`) starts in `timeZone`, as SQL. */
export const localMidnight = (day: string, timeZone: string): SQL =>
  sql`((${day}::date)::timestamp at time zone ${timeZone})`;

/** An instant as `yyyy-mm-dd hh:mm` in `timeZone`: what a spreadsheet reads as a date and time. */
export function localMinute(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}
