/**
 * The console's days are the institution's (`time_zone` in its file, D156): a day filter starts at
 * local midnight. Times are written for people by `collegeTime` (contract/collegeTime.ts, D197).
 */
import { sql, type SQL } from 'drizzle-orm';

/** The instant `day` (`yyyy-mm-dd`) starts in `timeZone`, as SQL. */
export const localMidnight = (day: string, timeZone: string): SQL =>
  sql`((${day}::date)::timestamp at time zone ${timeZone})`;
