/**
 * D98: the job worker process (`npm run worker`, server/worker.ts) on one PostgreSQL. A
 * worker killed with SIGKILL leaves its job to the next one after the lease, and two workers side by
 * side never run one job twice (each job's attempts). The same scenarios on PGlite, where the
 * worker's statements go through IPC: workerProcessPglite.test.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { workerScenarios } from './workerProcessJobs';
import { dropDatabase } from './dropDatabase';
import { onPostgres } from './postgresOnly';

const SUITE = 'the job worker process';

describe.runIf(onPostgres(SUITE))(SUITE, () => {
  // Read in beforeAll: a skipped suite's body still runs, where TEST_DATABASE_URL may be unset.
  let url: URL;
  const name = `admission_worker_${process.pid}_${randomBytes(4).toString('hex')}`;
  let dataDir: string;
  let client: pg.Client;
  const scenarios = workerScenarios(() => ({
    dataDir,
    env: { DATABASE_URL: url.toString() },
    query: async (sql, params) => (await client.query(sql, params)).rows,
  }));

  beforeAll(async () => {
    url = new URL(process.env.TEST_DATABASE_URL as string);
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
    await admin.end();
    url.pathname = `/${name}`;
    client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-worker-'));
  });

  afterAll(async () => {
    scenarios.killAll();
    await client?.end();
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL as string });
    await admin.connect();
    await dropDatabase((statement) => admin.query(statement), name);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  });
});
