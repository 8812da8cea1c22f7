/**
 * `npm run service-token -- <applicant e-mail> [--host <tenant host>]`: prints a read-only service
 * link for one applicant (SPEC 6, D41).
 *
 * PGlite admits one process per data directory (ARCHITECTURE.md), so the command first asks the
 * running server (`POST /service/tokens` on 127.0.0.1:PORT, authenticated with the CLI key that the
 * server and this command keep in DATA_DIR, mode 600). Only when no server answers does it open the
 * database itself (PGlite in DATA_DIR, or PostgreSQL from DATABASE_URL) and mint the token there.
 */
import { pathToFileURL } from 'node:url';
import { mintServiceTokenResponse, type MintServiceTokenResponse } from '../../contract';
import { configFromEnv, type ServerConfig } from '../config';
import { mintServiceToken } from '../serviceView';
import { wantsHelp } from './help';
import { cliHost, inHostTenant, NoServer, postToServer } from './runningServer';

export interface ServiceLinkRequest {
  readonly config: ServerConfig;
  readonly email: string;
  /** The server to ask (default http://127.0.0.1:PORT). */
  readonly serverUrl?: string;
  /** The Host header that selects the tenant (default: the default tenant's). */
  readonly host?: string;
}

/** Mints a service link through the running server, or from the database when none runs. */
export async function requestServiceLink(
  options: ServiceLinkRequest,
): Promise<MintServiceTokenResponse & { via: 'server' | 'database' }> {
  const { config, email } = options;
  const host = cliHost(options.host);
  try {
    const answer = await postToServer(
      config,
      '/service/tokens',
      host,
      { email },
      options.serverUrl,
    );
    const parsed = mintServiceTokenResponse.safeParse(answer);
    if (!parsed.success) throw new Error('The server answered an unexpected body.');
    return { ...parsed.data, via: 'server' };
  } catch (error) {
    if (!(error instanceof NoServer)) throw error;
  }
  const minted = await inHostTenant(config, host, (db, tenantId, directory) =>
    mintServiceToken(
      { db, config, originOf: (id) => directory.originOf(id, config) },
      tenantId,
      email,
      'cli',
    ),
  );
  return { ...minted, via: 'database' };
}

const USAGE = 'Usage: npm run service-token -- <applicant e-mail> [--host <tenant host>]';

export async function main(argv: readonly string[]): Promise<number> {
  if (wantsHelp(argv)) {
    console.log(USAGE);
    return 0;
  }
  const args = [...argv];
  const hostIndex = args.indexOf('--host');
  const host = hostIndex >= 0 ? args.splice(hostIndex, 2)[1] : undefined;
  const email = args[0];
  if (!email || args.length !== 1) {
    console.error(USAGE);
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
