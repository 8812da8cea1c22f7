/**
 * What the command-line tools share (D41): PGlite admits one process per data directory, so a tool
 * first asks the running server on 127.0.0.1:PORT (authenticated with the CLI key of DATA_DIR), and
 * only when none answers opens the database itself, in the one tenant the host selects.
 */
import http from 'node:http';
import type { ServerConfig } from '../config';
import { openDatabase, type Database } from '../db/client';
import { runInTenant } from '../db/tenantScope';
import { HttpError } from '../errors';
import { cliKey } from '../serviceView';
import { DEFAULT_TENANT_SEED, ensureTenant, TenantDirectory } from '../tenants';

/** No server listens: the tool falls back to the database. */
export class NoServer extends Error {}

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
  const url = new URL(path, serverUrl ?? `http://127.0.0.1:${config.port}`);
  const body = payload === undefined ? undefined : JSON.stringify(payload);
  return new Promise((resolve, reject) => {
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
            reject(new Error(`The server answered ${response.statusCode} without JSON.`));
            return;
          }
          const status = response.statusCode ?? 500;
          if (status === 200) resolve(data);
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
    request.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ECONNREFUSED' ? new NoServer(error.message) : error),
    );
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
 * Opens the database as the server would at start (a data directory no server has opened yet
 * still gets its default tenant), when no server holds it, for `work`.
 */
export async function onDatabase<T>(
  config: ServerConfig,
  work: (db: Database) => Promise<T>,
): Promise<T> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    migrationUrl: config.databaseMigrationUrl,
    dataDir: config.dataDir,
  });
  try {
    await ensureTenant(database.db, { ...DEFAULT_TENANT_SEED, id: config.defaultTenant });
    return await work(database.db);
  } finally {
    await database.close();
  }
}
