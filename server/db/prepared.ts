/**
 * Statements of the hot path, prepared once per database (D130): drizzle builds their SQL once
 * instead of on every request, and on PostgreSQL they are named, so each pooled connection parses
 * and plans them once instead of on every execution. Values go in as `sql.placeholder(...)`.
 */
import type { Database } from './client';

/** The statement `build` prepares, built on first use for each database handle. */
export function preparedOnce<T>(build: (db: Database) => T): (db: Database) => T {
  const built = new WeakMap<Database, T>();
  return (db) => {
    let statement = built.get(db);
    if (statement === undefined) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}
