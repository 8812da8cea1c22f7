/**
 * `npm run staff -- add <e-mail> --role reader|admin [--host <tenant host>]`: adds a staff member
 * (the first admin, typically) and prints the invitation link that is also mailed (docs/staff.md).
 *
 * Like `service-token`, it first asks the running server (`POST /staff/api/cli/staff` on
 * 127.0.0.1:PORT with the CLI key of DATA_DIR), since PGlite admits one process per data directory;
 * only when no server answers does it open the database itself.
 */
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { STAFF_ROLES, staffInviteBody, type StaffRole } from '../../contract/staff';
import { configFromEnv, type ServerConfig } from '../config';
import { JobQueue } from '../jobs/queue';
import { OutboxMailer, SmtpMailer } from '../mail/mailer';
import { DirectMail } from '../mail/mailJobs';
import { PasswordHasher } from '../passwords';
import { parse } from '../http/parse';
import type { ServiceContext } from '../http/context';
import { inviteStaff } from '../staff';
import { wantsHelp } from './help';
import { cliHost, inHostTenant, NoServer, postToServer } from './runningServer';

export interface AddStaffRequest {
  readonly config: ServerConfig;
  readonly email: string;
  readonly role: StaffRole;
  /** The server to ask (default http://127.0.0.1:PORT). */
  readonly serverUrl?: string;
  /** The Host header that selects the tenant (default: the default tenant's). */
  readonly host?: string;
}

/** Adds the staff member through the running server, or in the database when none runs. */
export async function addStaff(
  options: AddStaffRequest,
): Promise<{ link: string; via: 'server' | 'database' }> {
  const { config } = options;
  const body = parse(staffInviteBody, { email: options.email, role: options.role });
  const host = cliHost(options.host);
  try {
    const answer = (await postToServer(
      config,
      '/staff/api/cli/staff',
      host,
      body,
      options.serverUrl,
    )) as { link?: unknown };
    if (typeof answer.link !== 'string') throw new Error('The server answered an unexpected body.');
    return { link: answer.link, via: 'server' };
  } catch (error) {
    if (!(error instanceof NoServer)) throw error;
  }
  const log = pino({ level: 'warn' });
  const { link } = await inHostTenant(config, host, (db, tenantId, directory) => {
    const ctx: ServiceContext = {
      db,
      config,
      // No worker runs to send a queued mail: it goes at once.
      mail: new DirectMail(
        config.smtpUrl
          ? new SmtpMailer(config.smtpUrl, config.mailFrom, log)
          : new OutboxMailer(config.dataDir, log, false),
        config,
        log,
        (id) => directory.collegeOf(id, config),
      ),
      // What it queues waits for the server's worker; an invitation queues nothing.
      jobs: new JobQueue(db, { now: config.now }),
      hasher: new PasswordHasher(config.argon2),
      log,
      institutionOf: (id) => directory.institutionOf(id),
      originOf: (id) => directory.originOf(id, config),
    };
    return inviteStaff(ctx, { tenantId, staffUserId: null, name: 'cli' }, body.email, body.role);
  });
  return { link, via: 'database' };
}

const USAGE = `Usage: npm run staff -- add <e-mail> --role ${STAFF_ROLES.join('|')} [--host <tenant host>]`;

export async function main(argv: readonly string[]): Promise<number> {
  if (wantsHelp(argv)) {
    console.log(USAGE);
    return 0;
  }
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
