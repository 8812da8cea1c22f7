import { timestamp } from 'drizzle-orm/pg-core';

/** Every point in time is stored with its time zone and read as a Date. */
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
