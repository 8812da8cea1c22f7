/**
 * Load benchmark: logged-in `PUT /api/answer` (an autosave) on PGlite and on PostgreSQL,
 * beside a bare Fastify route that parses the same JSON body, in the same run. PostgreSQL runs when
 * TEST_DATABASE_URL is set (for example after `eval "$(bash .ci/postgres.sh)"`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { buildServer } from '../../server/app';
import { configFromEnv } from '../../server/config';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { runInTenant } from '../../server/db/tenantScope';
import { users } from '../../server/db/schema';
import { PasswordHasher } from '../../server/passwords';
import { dropDatabase } from '../server/dropDatabase';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 10;
const BODY = JSON.stringify({
  first_name: 'Maya',
  last_name: 'Okafor',
  city: 'Burlington',
  conviction_comment: 'A paragraph of text that an applicant typed. '.repeat(20),
});

interface Figures {
  readonly name: string;
  readonly rps: number;
  readonly p99: number;
  readonly errors: number;
  readonly non2xx: number;
}

async function load(name: string, url: string, headers: Record<string, string>): Promise<Figures> {
  const result = await autocannon({
    url,
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...headers },
    body: BODY,
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  return {
    name,
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

async function bare(): Promise<Figures> {
  const app = Fastify();
  app.put('/answer', async (request) => ({
    message: 'saved',
    keys: Object.keys(request.body as object).length,
  }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  try {
    return await load('bare Fastify route (baseline)', `http://127.0.0.1:${port}/answer`, {});
  } finally {
    await app.close();
  }
}

async function product(name: string, database: DatabaseHandle): Promise<Figures> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-bench-'));
  const config = configFromEnv({ NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const built = await buildServer(config, { database });
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  const address = built.app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    const passwordHash = await new PasswordHasher(config.argon2).hash('Bench-Password-1');
    // In the tenant's scope: on PostgreSQL, row-level security admits nothing else (D56).
    await runInTenant(config.defaultTenant, () =>
      database.db
        .insert(users)
        .values({
          tenantId: config.defaultTenant,
          email: 'bench@example.com',
          passwordHash,
          confirmedAt: new Date(),
          createdAt: new Date(),
        })
        .onConflictDoNothing(),
    );
    const login = await fetch(`${base}/public/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench@example.com', password: 'Bench-Password-1' }),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    return await load(name, `${base}/api/answer`, { cookie });
  } finally {
    await built.app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function runAnswersBench(): Promise<{ ok: boolean; lines: string[] }> {
  const results: Figures[] = [await bare()];
  const pglite = await openDatabase({
    dataDir: await mkdtemp(path.join(os.tmpdir(), 'admission-bench-db-')),
  });
  try {
    results.push(await product('PUT /api/answer on PGlite', pglite));
  } finally {
    await pglite.close();
  }
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `admission_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    const dbUrl = new URL(url);
    dbUrl.pathname = `/${name}`;
    const postgres = await openDatabase({ databaseUrl: dbUrl.toString() });
    try {
      results.push(await product('PUT /api/answer on PostgreSQL', postgres));
    } finally {
      await postgres.close();
      await dropDatabase((statement) => admin.query(statement), name);
      await admin.end();
    }
  }
  const baseline = results[0] as Figures;
  const lines = results.map(
    (r) =>
      `${r.name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  ` +
      `${(r.rps / baseline.rps).toFixed(3)}x of baseline  errors ${r.errors}  non-2xx ${r.non2xx}`,
  );
  if (!url)
    lines.push('PostgreSQL skipped: set TEST_DATABASE_URL (eval "$(bash .ci/postgres.sh)")');
  lines.push(`(${CONNECTIONS} connections, ${SECONDS} s each, body ${BODY.length} bytes)`);
  return { ok: results.every((r) => r.errors === 0 && r.non2xx === 0), lines };
}
