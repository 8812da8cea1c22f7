/**
 * The suites that need PostgreSQL run only when TEST_DATABASE_URL is set (the global setup then
 * provides a migrated template); elsewhere they skip, and say so in the run's output.
 */
import { inject } from 'vitest';

/** Whether the suite can run; prints the line that explains its skip when it cannot. */
export function onPostgres(suite: string): boolean {
  if (inject('postgresTemplate')) return true;
  console.info(`skipped: ${suite} needs PostgreSQL (set TEST_DATABASE_URL, see the README)`);
  return false;
}
