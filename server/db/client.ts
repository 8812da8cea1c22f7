/**
 * Opens the database: PostgreSQL when DATABASE_URL is set, else the embedded PGlite in DATA_DIR.
 * Committed SQL migrations are applied on open, so a fresh data directory is ready at once.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  readonly db: Database;
  readonly kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

export interface OpenOptions {
  readonly databaseUrl?: string | undefined;
  readonly dataDir?: string;
  /** An already opened PGlite (tests load one from a migrated dump). */
  readonly pglite?: PGlite;
  /** Skip migrations (the instance is known to be migrated). */
  readonly migrated?: boolean;
  /** Told about errors of idle pooled connections (a restarted PostgreSQL); the pool reconnects. */
  readonly onPoolError?: (error: Error) => void;
  /**
   * PostgreSQL only: a query (or getting a connection) that takes longer fails, so a request on a
   * dropped connection ends with an error the client retries instead of hanging (default 10 s).
   */
  readonly queryTimeoutMs?: number;
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const timeout = options.queryTimeoutMs ?? 10_000;
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 20,
      query_timeout: timeout,
      connectionTimeoutMillis: timeout,
    });
    // Without a listener, an idle connection closed by the server would crash the process.
    pool.on(
      'error',
      options.onPoolError ??
        ((error) => console.error(`database connection lost: ${error.message}`)),
    );
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    if (!options.migrated)
      await migratePg(drizzlePg(pool, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  let client = options.pglite;
  if (!client) {
    const dir = path.join(options.dataDir ?? './data', 'pgdata');
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir);
  }
  const pglite = client;
  const db = drizzlePglite(pglite, { schema }) as unknown as Database;
  if (!options.migrated)
    await migratePglite(drizzlePglite(pglite, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
  return { db, kind: 'pglite', close: () => pglite.close() };
}
