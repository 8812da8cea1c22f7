/**
 * `npm run service-token -- <applicant e-mail> [--host <tenant host>]`: prints a read-only service
 * link for one applicant (SPEC 6, D41).
 *
 * PGlite admits one process per data directory (ARCHITECTURE.md), so the command first asks the
 * running server (`POST /service/tokens` on 127.0.0.1:PORT, authenticated with the CLI key that the
 * server and this command keep in DATA_DIR, mode 600). Only when no server answers does it open the
 * database itself (PGlite in DATA_DIR, or PostgreSQL from DATABASE_URL) and mint the token there.
 */
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { mintServiceTokenResponse, type MintServiceTokenResponse } from '../../contract';
import { configFromEnv, type ServerConfig } from '../config';
import { openDatabase } from '../db/client';
import { runInTenant } from '../db/tenantScope';
import { HttpError } from '../errors';
import { cliKey, mintServiceToken } from '../services/serviceTokens';
import { DEFAULT_TENANT_SEED, ensureTenant, TenantDirectory } from '../tenants';

export interface ServiceLinkRequest {
  readonly config: ServerConfig;
  readonly email: string;
  /** The server to ask (default http://127.0.0.1:PORT). */
  readonly serverUrl?: string;
  /** The Host header that selects the tenant (default: the default tenant's). */
  readonly host?: string;
}

class NoServer extends Error {}

function askServer(
  url: URL,
  host: string,
  key: string,
  email: string,
): Promise<MintServiceTokenResponse> {
  const body = JSON.stringify({ email });
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        headers: {
          host,
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          let data: unknown;
          try {
            data = JSON.parse(text);
          } catch {
            reject(new Error(`The server answered ${response.statusCode} without JSON.`));
            return;
          }
          const status = response.statusCode ?? 500;
          if (status !== 200) {
            const message = (data as { message?: unknown }).message;
            reject(new HttpError(status, typeof message === 'string' ? message : `HTTP ${status}`));
            return;
          }
          const parsed = mintServiceTokenResponse.safeParse(data);
          if (parsed.success) resolve(parsed.data);
          else reject(new Error('The server answered an unexpected body.'));
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ECONNREFUSED' ? new NoServer(error.message) : error),
    );
    request.end(body);
  });
}

/** Mints a service link through the running server, or from the database when none runs. */
export async function requestServiceLink(
  options: ServiceLinkRequest,
): Promise<MintServiceTokenResponse & { via: 'server' | 'database' }> {
  const { config, email } = options;
  const url = new URL('/service/tokens', options.serverUrl ?? `http://127.0.0.1:${config.port}`);
  const host = options.host ?? DEFAULT_TENANT_SEED.hosts[0] ?? 'localhost';
  try {
    return { ...(await askServer(url, host, cliKey(config), email)), via: 'server' };
  } catch (error) {
    if (!(error instanceof NoServer)) throw error;
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    migrationUrl: config.databaseMigrationUrl,
    dataDir: config.dataDir,
  });
  try {
    // As at server start: a data directory no server has opened yet still has its default tenant.
    await ensureTenant(database.db, { ...DEFAULT_TENANT_SEED, id: config.defaultTenant });
    const directory = new TenantDirectory(config.defaultTenant);
    await directory.load(database.db);
    const tenantId = directory.forHost(host).id;
    // The one tenant it was given: on PostgreSQL, row-level security shows it no other (D56).
    const minted = await runInTenant(tenantId, () =>
      mintServiceToken({ db: database.db, config }, tenantId, email, 'cli'),
    );
    return { ...minted, via: 'database' };
  } finally {
    await database.close();
  }
}

export async function main(argv: readonly string[]): Promise<number> {
  const args = [...argv];
  const hostIndex = args.indexOf('--host');
  const host = hostIndex >= 0 ? args.splice(hostIndex, 2)[1] : undefined;
  const email = args[0];
  if (!email || args.length !== 1) {
    console.error('Usage: npm run service-token -- <applicant e-mail> [--host <tenant host>]');
    return 2;
  }
  try {
    const config = configFromEnv();
    const minted = await requestServiceLink({ config, email, host });
    console.log(minted.url);
    console.error(`Valid until ${minted.expires_at} (read-only, this applicant only).`);
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
