/**
 * A lock one process at a time holds on a PostgreSQL database, for work that must not run twice at
 * once (D183): a session advisory lock on a connection of its own, released when the work ends or
 * the process dies (its connection closes). The embedded database has a single connection in a
 * single process per data directory (D41): there the work just runs.
 */
import pg from 'pg';
import type { Database } from './client';

/** Runs `work` holding lock `key`; undefined at once, without running it, when another holds it. */
export async function whileHolding<T>(
  db: Database,
  key: number,
  work: () => Promise<T>,
): Promise<T | undefined> {
  const pool = (db as unknown as { $client: unknown }).$client;
  if (!(pool instanceof pg.Pool)) return work();
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>(
      'select pg_try_advisory_lock($1) as locked',
      [key],
    );
    if (!rows[0]?.locked) return undefined;
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [key]);
    }
  } finally {
    client.release();
  }
}
