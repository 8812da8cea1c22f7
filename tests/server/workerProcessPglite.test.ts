/**
 * D98: the job worker on the embedded PGlite, where its statements go over IPC to the
 * process that owns the data directory (server/db/ipc.ts). Here the test process is that owner, as
 * the web process is in production, and answers two workers at once: each claim is one statement,
 * so two workers never run one job twice; a worker killed with SIGKILL leaves its job to the next
 * after the lease. The product forks one worker; two here prove the claim, not a deployment.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { serveDatabaseOverIpc } from '../../server/db/ipc';
import { IPC_DATABASE_ENV } from '../../server/jobs/workerProcess';
import { DEFAULT_TENANT_SEED, ensureTenant } from '../../server/tenants';
import { workerScenarios } from './workerProcessJobs';

describe('the job worker process on PGlite (statements over IPC)', () => {
  let dataDir: string;
  let database: DatabaseHandle;
  const scenarios = workerScenarios(() => ({
    dataDir,
    env: { DATABASE_URL: '', [IPC_DATABASE_ENV]: '1' },
    query: async <T>(sql: string, params?: unknown[]) =>
      (await database.pglite!.query<T>(sql, params)).rows,
    attach: (child) => serveDatabaseOverIpc(child, database.pglite!),
  }));

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-worker-pglite-'));
    database = await openDatabase({ dataDir });
    // What the web process seeds on start; the worker finds its tenants there.
    await ensureTenant(database.db, DEFAULT_TENANT_SEED);
  });

  afterAll(async () => {
    scenarios.killAll();
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });
});
