/** Starts the server on the configured port; stops gracefully on SIGTERM and SIGINT. */
import type { AddressInfo } from 'node:net';
import { configFromEnv, publicOriginOf } from './config';
import { buildServer } from './app';
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
  await app.listen({ host: config.host, port: config.port });
  // With PORT=0 the system picks the port: name the one really listened on.
  const { port } = app.server.address() as AddressInfo;
  const origin = port === config.port ? config.publicOrigin : publicOriginOf(undefined, port);
  app.log.info(
    { database: database.kind, mail: config.smtpUrl ? 'smtp' : `${config.dataDir}/outbox.jsonl` },
    `Admission application listening on ${origin}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
