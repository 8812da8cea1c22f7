/**
 * `npm run staff -- add <e-mail> --role reader|admin [--host <tenant host>]`: adds a staff member
 * (the first admin, typically) and prints the invitation link that is also mailed (docs/staff.md).
 *
 * Like `service-token`, it first asks the running server (`POST /staff/api/cli/staff` on
 * 127.0.0.1:PORT with the CLI key of DATA_DIR), since PGlite admits one process per data directory;
 * only when no server answers does it open the database itself.
 */
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { STAFF_ROLES, staffInviteBody, type StaffRole } from '../../contract/staff';
import { configFromEnv, type ServerConfig } from '../config';
import { openDatabase } from '../db/client';
import { runInTenant } from '../db/tenantScope';
import { HttpError } from '../errors';
import { OutboxMailer, SmtpMailer } from '../mail/mailer';
import { PasswordHasher } from '../passwords';
import { parse } from '../routes/parse';
import type { ServiceContext } from '../services/context';
import { cliKey } from '../services/serviceTokens';
import { inviteStaff } from '../staff/accounts';
import { DEFAULT_TENANT_SEED, ensureTenant, TenantDirectory } from '../tenants';

export interface AddStaffRequest {
  readonly config: ServerConfig;
  readonly email: string;
  readonly role: StaffRole;
  /** The server to ask (default http://127.0.0.1:PORT). */
  readonly serverUrl?: string;
  /** The Host header that selects the tenant (default: the default tenant's). */
  readonly host?: string;
}

class NoServer extends Error {}

function post(url: URL, host: string, key: string, payload: unknown): Promise<unknown> {
  const body = JSON.stringify(payload);
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
          let data: { message?: unknown };
          try {
            data = JSON.parse(text) as { message?: unknown };
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

/** Adds the staff member through the running server, or in the database when none runs. */
export async function addStaff(
  options: AddStaffRequest,
): Promise<{ link: string; via: 'server' | 'database' }> {
  const { config } = options;
  const body = parse(staffInviteBody, { email: options.email, role: options.role });
  const host = options.host ?? DEFAULT_TENANT_SEED.hosts[0] ?? 'localhost';
  const url = new URL(
    '/staff/api/cli/staff',
    options.serverUrl ?? `http://127.0.0.1:${config.port}`,
  );
  try {
    const answer = (await post(url, host, cliKey(config), body)) as { link?: unknown };
    if (typeof answer.link !== 'string') throw new Error('The server answered an unexpected body.');
    return { link: answer.link, via: 'server' };
  } catch (error) {
    if (!(error instanceof NoServer)) throw error;
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    migrationUrl: config.databaseMigrationUrl,
    dataDir: config.dataDir,
  });
  const log = pino({ level: 'warn' });
  try {
    await ensureTenant(database.db, { ...DEFAULT_TENANT_SEED, id: config.defaultTenant });
    const directory = new TenantDirectory(config.defaultTenant);
    await directory.load(database.db);
    const tenantId = directory.forHost(host).id;
    const ctx: ServiceContext = {
      db: database.db,
      config,
      mailer: config.smtpUrl
        ? new SmtpMailer(config.smtpUrl, config.mailFrom, log)
        : new OutboxMailer(config.dataDir, log, false),
      hasher: new PasswordHasher(config.argon2),
      log,
    };
    const { link } = await runInTenant(tenantId, () =>
      inviteStaff(ctx, { tenantId, staffUserId: null, name: 'cli' }, body.email, body.role),
    );
    return { link, via: 'database' };
  } finally {
    await database.close();
  }
}

const USAGE = `Usage: npm run staff -- add <e-mail> --role ${STAFF_ROLES.join('|')} [--host <tenant host>]`;

export async function main(argv: readonly string[]): Promise<number> {
  const args = [...argv];
  const option = (name: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? args.splice(index, 2)[1] : undefined;
  };
  const host = option('--host');
  const role = option('--role') ?? 'reader';
  const [command, email] = args;
  if (
    command !== 'add' ||
    !email ||
    args.length !== 2 ||
    !STAFF_ROLES.includes(role as StaffRole)
  ) {
    console.error(USAGE);
    return 2;
  }
  try {
    const added = await addStaff({ config: configFromEnv(), email, role: role as StaffRole, host });
    console.log(added.link);
    console.error(`Invitation for ${email} (${role}) mailed; the link works once, for 7 days.`);
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
