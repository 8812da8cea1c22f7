/** Starts the server on the configured port; stops gracefully on SIGTERM and SIGINT. */
import type { AddressInfo } from 'node:net';
import { configFromEnv, publicOriginOf } from './config';
import { buildServer } from './app';
import { messageOf } from './db/client';
import { exampleTenants } from './exampleTenants';
import { closeWithin } from './shutdown';

async function main(): Promise<void> {
  const config = configFromEnv();
  const { app, database, closing } = await buildServer(config, {
    // The embedded default shows a second college at riverside.localhost (docs/tenants.md).
    ...(config.databaseUrl ? {} : exampleTenants()),
    startWorker: config.jobWorker === 'inline',
    workerProcess: config.jobWorker === 'process',
  });
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    void closeWithin(
      () => app.close(),
      closing,
      app.log,
      (code) => process.exit(code),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    // Close the embedded database and the worker before leaving, so the next start opens them.
    stopping = true;
    console.error(listenFailure(error, config.host, config.port));
    await closeWithin(
      () => app.close(),
      closing,
      app.log,
      (code) => process.exit(code || 1),
    );
    return;
  }
  // With PORT=0 the system picks the port: name the one really listened on.
  const { port } = app.server.address() as AddressInfo;
  const origin = port === config.port ? config.publicOrigin : publicOriginOf(undefined, port);
  app.log.info(
    { database: database.kind, mail: config.smtpUrl ? 'smtp' : `${config.dataDir}/outbox.jsonl` },
    `Admission application listening on ${origin}`,
  );
}

/** One line an operator can act on when the port cannot be taken. */
function listenFailure(error: unknown, host: string, port: number): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE')
    return `Port ${port} on ${host} is already in use (is the product already running?): stop that process or start with another PORT.`;
  if (code === 'EACCES')
    return `Port ${port} on ${host} needs more privileges: start with a PORT above 1023 or put a proxy in front.`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * What stopped the start, with its cause where the message lacks it (drizzle's "Failed query: …"
 * names the statement, its cause what went wrong).
 */
function startFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.cause === undefined || error.message.includes(messageOf(error.cause)))
    return error.message;
  return messageOf(error);
}

main().catch((error: unknown) => {
  // The data directory in use by another process (D195), a bad setting, a database that fails.
  console.error(startFailure(error));
  process.exit(1);
});
