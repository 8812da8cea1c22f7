/**
 * `npm run worker`: the job worker process (D98). It claims jobs from the queue (printing the
 * application PDF, converting documents, sweeping uploads) so that web processes never host
 * Chromium. On PostgreSQL run any number beside the web processes; on the embedded PGlite the web
 * process starts its one worker itself and answers its statements (server/db/ipc.ts).
 */
import pino from 'pino';
import { wantsHelp } from './cli/help';
import { configFromEnv } from './config';
import { openDatabase } from './db/client';
import { openIpcDatabase } from './db/ipc';
import { createJobs } from './jobKinds';
import { lowerPriority } from './jobs/priority';
import { IPC_DATABASE_ENV, WORKER_RUNNING, WORKER_STOP_MS } from './jobs/workerProcess';
import { OutboxMailer, SmtpMailer } from './mail/mailer';
import { ClosingSteps, CLOSE_STEP_MS, closeWithin, JOB_GRACE_MS } from './shutdown';
import { TenantDirectory } from './tenants';
import type { FastifyBaseLogger } from 'fastify';

const USAGE =
  'Usage: npm run worker (no arguments): a job worker beside the web processes, on the PostgreSQL of DATABASE_URL (docs/operations.md)';

async function main(): Promise<void> {
  if (wantsHelp(process.argv.slice(2))) {
    console.log(USAGE);
    return;
  }
  // Below the web processes, and so is the Chromium it starts (D116).
  lowerPriority();
  const config = configFromEnv();
  const log = pino({ level: config.logLevel, base: { pid: process.pid, role: 'worker' } });
  const viaParent = process.env[IPC_DATABASE_ENV] === '1';
  if (!viaParent && !config.databaseUrl)
    throw new Error(
      'On the embedded PGlite the server starts its job worker itself; `npm run worker` needs DATABASE_URL.',
    );
  const database = viaParent
    ? openIpcDatabase()
    : await openDatabase({
        databaseUrl: config.databaseUrl,
        migrationUrl: config.databaseMigrationUrl,
        dataDir: config.dataDir,
      });
  const directory = new TenantDirectory(config.defaultTenant);
  await directory.load(database.db);
  const logger = log as unknown as FastifyBaseLogger;
  const mailer = config.smtpUrl
    ? new SmtpMailer(config.smtpUrl, config.mailFrom, logger)
    : new OutboxMailer(config.dataDir, logger, config.env === 'development');
  const { queue, printer, sandbox } = createJobs(config, database, mailer, logger, directory);
  // A college published or changed through a web process: its mails and PDFs follow within seconds.
  const unfollow = directory.follow(database.db, config.tenantRefreshMs, logger);

  const closing = new ClosingSteps();
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ reason }, 'job worker stopping');
    unfollow();
    // Without the web process that answered its statements, the job cannot be handed back: it waits
    // for its lease, and the worker goes at once.
    const orphaned = viaParent && !process.connected;
    void closeWithin(
      async () => {
        await closing.run(
          'job',
          () => queue.stop(orphaned ? { abandon: true } : { graceMs: JOB_GRACE_MS }),
          JOB_GRACE_MS + 1000,
          log,
        );
        await closing.run(
          'chromium and conversion sandbox',
          () => Promise.all([printer.close(), sandbox.close()]),
          CLOSE_STEP_MS,
          log,
        );
        await closing.run('database', () => database.close(), 1000, log);
      },
      closing,
      log,
      (code) => process.exit(code),
      WORKER_STOP_MS - 500,
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // The web process that owns the database went away: nothing more can be done here.
  process.on('disconnect', () => stop('parent gone'));
  queue.start();
  // The web process that started it says `starting` on /readyz until then (D195).
  void queue.heartbeat.firstBeat().then(() => {
    if (process.connected) process.send?.({ type: WORKER_RUNNING });
  });
  log.info(
    { database: viaParent ? 'pglite (through the web process)' : database.kind },
    'job worker running',
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
