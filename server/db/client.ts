/**
 * Opens the database: PostgreSQL when DATABASE_URL is set, else the embedded PGlite in DATA_DIR.
 * Committed SQL migrations are applied on open, so a fresh data directory is ready at once.
 *
 * On PostgreSQL every connection the pool hands out carries the tenant of the scope that asked for it
 * (`app.tenant_id`, read by the row-level security policies of migration 0007; docs/decisions/ D56).
 * PGlite connects as a superuser, which passes every policy, so it is opened unchanged.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { lockDataDir } from './dataDirLock';
import * as schema from './schema';
import { currentTenant } from './tenantScope';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  readonly db: Database;
  readonly kind: 'pglite' | 'postgres';
  /** The embedded database itself (PGlite only): the worker process reaches it through this one. */
  readonly pglite?: PGlite;
  /** PostgreSQL only: the pool's connections now (the deadline bench watches waits for one). */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  readonly total: number;
  readonly idle: number;
  /** Callers waiting for a connection. */
  readonly waiting: number;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

export interface OpenOptions {
  readonly databaseUrl?: string | undefined;
  /**
   * PostgreSQL only: the role that owns the schema and runs the migrations (DATABASE_MIGRATION_URL),
   * when the application's own role (databaseUrl) may not (docs/operations.md). Default: databaseUrl.
   */
  readonly migrationUrl?: string | undefined;
  readonly dataDir?: string;
  /** An already opened PGlite (tests load one from a migrated dump). */
  readonly pglite?: PGlite;
  /** Skip migrations (the instance is known to be migrated). */
  readonly migrated?: boolean;
  /**
   * Open only a database a server's start has made (the command-line tools, D195): an empty data
   * directory or PostgreSQL database is refused with NoDatabase, never created.
   */
  readonly existing?: boolean;
  /** Told about errors of idle pooled connections (a restarted PostgreSQL); the pool reconnects. */
  readonly onPoolError?: (error: Error) => void;
  /**
   * PostgreSQL only: a query (or getting a connection) that takes longer fails, so a request on a
   * dropped connection ends with an error the client retries instead of hanging (default 10 s).
   */
  readonly queryTimeoutMs?: number;
}

/** Sets the session's tenant; '' (outside any scope) matches no row of a table under RLS. */
const SET_TENANT = "select set_config('app.tenant_id', $1, false)";

/**
 * A pool whose connections carry the caller's tenant. Each checkout (`connect`, which `query` and
 * drizzle's transactions go through) compares the tenant the connection was last given with the
 * caller's scope, read synchronously when the caller asks, and sets it when they differ, before any
 * statement of the caller and outside any transaction (so a rollback cannot undo it). A connection
 * therefore never serves a request with another request's tenant, and a caller outside any scope
 * always gets the empty tenant. Nothing else in the application writes `app.tenant_id`.
 */
export class TenantPool extends pg.Pool {
  private readonly tenantOf = new WeakMap<pg.PoolClient, string>();

  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (
      err: Error | undefined,
      client: pg.PoolClient | undefined,
      done: (release?: unknown) => void,
    ) => void,
  ): void;
  override connect(
    callback?: (
      err: Error | undefined,
      client: pg.PoolClient | undefined,
      done: (release?: unknown) => void,
    ) => void,
  ): Promise<pg.PoolClient> | void {
    const tenant = currentTenant() ?? '';
    const ready = super.connect().then((client) => this.withTenant(client, tenant));
    if (!callback) return ready;
    ready.then(
      (client) => callback(undefined, client, (release) => client.release(release as Error)),
      (error: Error) => callback(error, undefined, () => undefined),
    );
  }

  private async withTenant(client: pg.PoolClient, tenant: string): Promise<pg.PoolClient> {
    if (this.tenantOf.get(client) === tenant) return client;
    this.tenantOf.delete(client);
    try {
      await client.query(SET_TENANT, [tenant]);
    } catch (error) {
      // A connection whose setting is unknown is not reused.
      client.release(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    this.tenantOf.set(client, tenant);
    return client;
  }
}

/** The database asked for with `existing` was never made by a server's start (D195). */
export class NoDatabase extends Error {
  constructor(readonly where: string) {
    super(`There is no database in ${where}.`);
    this.name = 'NoDatabase';
  }
}

/** A PostgreSQL URL as a message names it: its database and host, never its credentials. */
export function describePostgres(url: string): string {
  try {
    const parsed = new URL(url);
    return `the PostgreSQL database ${decodeURIComponent(parsed.pathname.slice(1)) || '(default)'} at ${parsed.host}`;
  } catch {
    return 'the PostgreSQL database of DATABASE_URL';
  }
}

const migrations = { migrationsFolder: MIGRATIONS_FOLDER };

/** Migrations of one PostgreSQL database, one process at a time (several may start together). */
const MIGRATION_LOCK = 7_240_031;

async function migratePostgres(url: string, timeout: number, existing: boolean): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeout });
  await client.connect();
  try {
    if (existing) {
      const { rows } = await client.query<{ made: boolean }>(
        "select to_regclass('drizzle.__drizzle_migrations') is not null as made",
      );
      if (!rows[0]?.made) throw new NoDatabase(describePostgres(url));
    }
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client, { schema }), migrations);
  } finally {
    await client.end();
  }
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const timeout = options.queryTimeoutMs ?? 10_000;
    if (!options.migrated)
      await migratePostgres(
        options.migrationUrl ?? options.databaseUrl,
        timeout,
        options.existing ?? false,
      );
    const pool = new TenantPool({
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
    return {
      db,
      kind: 'postgres',
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
      close: () => pool.end(),
    };
  }
  if (options.pglite) {
    const pglite = options.pglite;
    if (!options.migrated) await migratePglite(drizzlePglite(pglite, { schema }), migrations);
    return pgliteHandle(pglite, async () => undefined);
  }
  const dataDir = path.resolve(options.dataDir ?? './data');
  const dir = path.join(dataDir, 'pgdata');
  if (options.existing && !existsSync(path.join(dir, 'PG_VERSION')))
    throw new NoDatabase(`the data directory ${dataDir}`);
  mkdirSync(dir, { recursive: true });
  // Before PGlite reads a page: a second process on the directory is refused (D195).
  const release = lockDataDir(dataDir);
  let pglite: PGlite | undefined;
  try {
    pglite = new PGlite(dir);
    if (!options.migrated) await migratePglite(drizzlePglite(pglite, { schema }), migrations);
  } catch (error) {
    await pglite?.close().catch(() => undefined);
    release();
    throw new Error(
      `The embedded database in ${dir} could not be opened or migrated: ${messageOf(error)}`,
      { cause: error },
    );
  }
  return pgliteHandle(pglite, () => Promise.resolve(release()));
}

function pgliteHandle(pglite: PGlite, release: () => Promise<void>): DatabaseHandle {
  const db = drizzlePglite(pglite, { schema }) as unknown as Database;
  return { db, kind: 'pglite', pglite, close: () => pglite.close().finally(release) };
}

/** An error's message on one line, with what caused it (drizzle's "Failed query" names only the SQL). */
export function messageOf(error: unknown): string {
  const parts: string[] = [];
  for (let cause: unknown = error; cause !== undefined && parts.length < 4;) {
    const message = cause instanceof Error ? cause.message : String(cause);
    const line = message.split('\n')[0]?.trim();
    if (line && !parts.includes(line)) parts.push(line);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return parts.join(': ') || 'unknown error';
}

/**
 * Whether the connected role passes row-level security anyway (a superuser, or BYPASSRLS): then the
 * policies protect nothing, and the server says so at start. Always true on PGlite.
 */
export async function bypassesRowSecurity(handle: DatabaseHandle): Promise<boolean> {
  const result = (await handle.db.execute(
    sql`select rolsuper or rolbypassrls as bypass from pg_roles where rolname = current_user`,
  )) as unknown as { rows: { bypass: boolean }[] };
  return result.rows[0]?.bypass ?? false;
}
