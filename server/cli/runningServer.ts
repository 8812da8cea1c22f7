/**
 * What the command-line tools share (D41): PGlite admits one process per data directory, so a tool
 * first asks the running server on 127.0.0.1:PORT (authenticated with the CLI key of DATA_DIR), and
 * only when none answers opens the database itself, in the one tenant the host selects.
 *
 * They read the settings `npm start` reads, from the environment (D195), and find the server and
 * database those name or nothing: a data directory that does not exist, or a database no server's
 * start has made, is refused with what to set, never created; and each says on stderr which server
 * or data directory it worked on.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { ServerConfig } from '../config';
import { DataDirInUse } from '../db/dataDirLock';
import { describePostgres, NoDatabase, openDatabase, type Database } from '../db/client';
import { runInTenant } from '../db/tenantScope';
import { HttpError } from '../errors';
import { cliKey } from '../serviceView';
import { DEFAULT_TENANT_SEED, TenantDirectory } from '../tenants';

/** No server listens: the tool falls back to the database. */
export class NoServer extends Error {}

/** The server a tool asks: 127.0.0.1 on PORT, unless given. */
export const serverUrlOf = (config: ServerConfig, serverUrl?: string): string =>
  (serverUrl ?? `http://127.0.0.1:${config.port}`).replace(/\/$/, '');

/** The server a command asked and found nobody at, by its settings (named if it opens the database). */
const unanswered = new WeakMap<ServerConfig, string>();

/** Says on stderr what a tool worked on: the operator sees whether it was the one meant. */
function tell(line: string): void {
  console.error(line);
}

/**
 * Refuses a DATA_DIR that does not exist: no server was started with it, and the tool would make
 * it (its keys, its database) where no server looks.
 */
export function requireDataDir(config: ServerConfig, { andPort = false } = {}): void {
  if (existsSync(config.dataDir)) return;
  throw new Error(
    `There is no data directory ${config.dataDir}: run the command with the DATA_DIR${andPort ? ' (and PORT)' : ''} the server was started with.`,
  );
}

/** What the database of `config` is, as a message names it. */
function databaseOf(config: ServerConfig): string {
  return config.databaseUrl
    ? `${describePostgres(config.databaseUrl)} (data directory ${config.dataDir})`
    : `the data directory ${config.dataDir}`;
}

/** The Host header that selects the tenant (default: the default tenant's). */
export const cliHost = (host?: string): string =>
  host ?? DEFAULT_TENANT_SEED.hosts[0] ?? 'localhost';

/** POSTs JSON to the running server with the CLI key; the parsed 200 body, or an HttpError. */
export function postToServer(
  config: ServerConfig,
  path: string,
  host: string,
  payload: unknown,
  serverUrl?: string,
): Promise<unknown> {
  return askServer(config, 'POST', path, host, payload, serverUrl);
}

/** Sends a call with the CLI key to the running server; the parsed 200 body, or an HttpError. */
export function askServer(
  config: ServerConfig,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  host: string,
  payload?: unknown,
  serverUrl?: string,
): Promise<unknown> {
  requireDataDir(config, { andPort: true });
  const server = serverUrlOf(config, serverUrl);
  const url = new URL(path, server);
  const body = payload === undefined ? undefined : JSON.stringify(payload);
  return new Promise<unknown>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method,
        headers: {
          host,
          authorization: `Bearer ${cliKey(config)}`,
          ...(body === undefined
            ? {}
            : {
                'content-type': 'application/json',
                'content-length': String(Buffer.byteLength(body)),
              }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          let data: { message?: unknown; problems?: unknown };
          try {
            data = JSON.parse(text) as { message?: unknown; problems?: unknown };
          } catch {
            reject(
              new Error(
                `What answers at ${server} (HTTP ${response.statusCode}, not JSON) is not this product's server: run the command with the server's PORT.`,
              ),
            );
            return;
          }
          const status = response.statusCode ?? 500;
          if (status === 200) {
            tell(`Done through the server at ${server} (data directory ${config.dataDir}).`);
            resolve(data);
          } else if (status === 401)
            // Only the key is checked: that server keeps another data directory's key.
            reject(
              new Error(
                `The server at ${server} refused the command-line key of ${config.dataDir}: it was started with another DATA_DIR; run the command with that server's DATA_DIR (or the PORT of the server that uses ${config.dataDir}).`,
              ),
            );
          else
            reject(
              new HttpError(
                status,
                typeof data.message === 'string' ? data.message : `HTTP ${status}`,
                Array.isArray(data.problems) ? { problems: data.problems.map(String) } : {},
              ),
            );
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNREFUSED') return reject(error);
      unanswered.set(config, server);
      reject(new NoServer(`No server answered at ${server}.`));
    });
    request.end(body);
  });
}

/**
 * Runs `work` on the database in the host's tenant only: on PostgreSQL, row-level security shows
 * it no other (D56).
 */
export async function inHostTenant<T>(
  config: ServerConfig,
  host: string,
  work: (db: Database, tenantId: string, directory: TenantDirectory) => Promise<T>,
): Promise<T> {
  return onDatabase(config, async (db) => {
    const directory = new TenantDirectory(config.defaultTenant);
    await directory.load(db);
    const tenantId = directory.forHost(host).id;
    return runInTenant(tenantId, () => work(db, tenantId, directory));
  });
}

/**
 * Opens the database a server's start has made, when no server holds it, for `work`; says which
 * it worked on. Refused, with what to set: a data directory or database that is not there (never
 * made here), and on PGlite a data directory another process has open (D195).
 */
export async function onDatabase<T>(
  config: ServerConfig,
  work: (db: Database) => Promise<T>,
): Promise<T> {
  requireDataDir(config);
  const asked = unanswered.get(config);
  const noServer = asked ? `, and no server answered at ${asked}` : '';
  let database;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      migrationUrl: config.databaseMigrationUrl,
      dataDir: config.dataDir,
      existing: true,
    });
  } catch (error) {
    if (error instanceof NoDatabase)
      throw new Error(
        config.databaseUrl
          ? `There are no tables of this product in ${error.where}${noServer}: run the command with the DATABASE_URL${asked ? ' and PORT' : ''} the server was started with.`
          : `There is no database in ${error.where}${noServer}: run the command with the DATA_DIR${asked ? ' and PORT' : ''} the server was started with.`,
        { cause: error },
      );
    if (error instanceof DataDirInUse)
      throw new Error(
        asked
          ? `The data directory ${error.dataDir} is in use by another process (pid ${error.pid}), but no server answered at ${asked}: run the command with the PORT of the server that uses it.`
          : `The data directory ${error.dataDir} is in use by another process (pid ${error.pid}): stop it first, as the embedded database admits one process at a time.`,
        { cause: error },
      );
    throw error;
  }
  try {
    const result = await work(database.db);
    tell(`Done on ${databaseOf(config)}${asked ? ` (no server answered at ${asked})` : ''}.`);
    return result;
  } finally {
    await database.close();
  }
}
