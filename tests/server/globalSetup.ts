/**
 * Migrates once per run, for every project that needs it: a PGlite data directory dumped to a file
 * that each test file loads (≈0.5 s instead of ≈3 s for a fresh one), and, when TEST_DATABASE_URL is
 * set, a PostgreSQL template database each test file clones.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { runInTenant } from '../../server/db/tenantScope';
import { seedSampleLists } from '../../server/lookup/store';
import { DEFAULT_TENANT_SEED, definitionsById, ensureTenant } from '../../server/tenants';
import { oncePerRun } from './oncePerRun';

/** The default tenant and its sample lookup lists, as a first start creates them (≈0.35 s a server). */
async function seedDefaultTenant(handle: DatabaseHandle): Promise<void> {
  const definition = definitionsById.get(DEFAULT_TENANT_SEED.definitionId);
  if (!definition) throw new Error('the default definition is missing');
  await ensureTenant(handle.db, DEFAULT_TENANT_SEED);
  // In the tenant's scope, as the server seeds them: on PostgreSQL, row-level security admits
  // nothing else (docs/decisions/ D56).
  await runInTenant(DEFAULT_TENANT_SEED.id, () =>
    seedSampleLists(handle.db, DEFAULT_TENANT_SEED.id, definition, new Date()),
  );
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
    postgresTemplate: string | null;
  }
}

interface TestDatabases {
  readonly pgliteDump: string;
  readonly postgresTemplate: string | null;
  readonly drop: () => Promise<void>;
}

async function migrateTestDatabases(): Promise<TestDatabases> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'admission-tests-'));
  const pglite = new PGlite();
  const handle = await openDatabase({ pglite });
  await seedDefaultTenant(handle);
  const dump = await pglite.dumpDataDir('none');
  const dumpFile = path.join(dir, 'pglite.tar');
  await writeFile(dumpFile, Buffer.from(await dump.arrayBuffer()));
  await handle.close();

  let template: string | null = null;
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    template = `admission_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    await admin.end();
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${template}`;
    const migrated = await openDatabase({ databaseUrl: templateUrl.toString() });
    await seedDefaultTenant(migrated);
    await migrated.close();
  }

  const drop = async () => {
    await rm(dir, { recursive: true, force: true });
    if (url && template) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE 'admission_test_${process.pid}_%' OR datname = $1`,
        [template],
      );
      for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname}`);
      await admin.end();
    }
  };
  return { pgliteDump: dumpFile, postgresTemplate: template, drop };
}

/**
 * The projects of one run (`server`, `e2e`, `bundled-chromium`) each call this setup: they share one
 * migration, and the last teardown drops it.
 */
export default async function setup(project: TestProject) {
  const { value: databases, teardown } = await oncePerRun(
    'test databases',
    migrateTestDatabases,
    (made) => made.drop(),
  );
  project.provide('pgliteDump', databases.pgliteDump);
  project.provide('postgresTemplate', databases.postgresTemplate);
  if (!databases.postgresTemplate)
    console.info(
      `${project.name}: TEST_DATABASE_URL is not set, so the server suites run on PGlite only`,
    );
  return teardown;
}
