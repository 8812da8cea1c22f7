/**
 * Several server processes on one PostgreSQL (ARCHITECTURE.md "processes are stateless";
 * docs/operations.md), configured as in production: the processes connect as an application role
 * that is no superuser, owns nothing and has no BYPASSRLS, and migrate at start as the owner role
 * (DATABASE_MIGRATION_URL), both at once on a fresh database (the migration lock). They share
 * SERVICE_TOKEN_SECRET, UPLOAD_SECRET and the storage directory (DATA_DIR). An applicant moves
 * between them freely; a conversion asked of one is done by the queue of either. Then a backup with
 * pg_dump, restored into a new database with pg_restore, serves the same applicant to a new process.
 *
 * PostgreSQL only (TEST_DATABASE_URL; CI always sets it). The backup is taken as the superuser of
 * TEST_DATABASE_ADMIN_URL: under FORCE ROW LEVEL SECURITY even the tables' owner cannot dump them.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import { MIGRATIONS_FOLDER, openDatabase } from '../../server/db/client';
import { freePort } from '../fixtures/freePort';
import { onPostgres } from './postgresOnly';
import { png } from './documentFiles';
import { Client, outboxCode, PASSWORD } from './harness';
import { dropDatabase } from './dropDatabase';
import { entryArgs } from './entryArgs';

const run = promisify(execFile);
const KEY = 'transcript_file';
const STAFF_KEY = 'k'.repeat(40);

/** A PostgreSQL client program: beside the newest server binaries (as .ci/postgres.sh), else PATH. */
function pgTool(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).sort((a, b) => Number(b) - Number(a) || b.localeCompare(a))
    : [];
  for (const version of versions) {
    const file = path.join(root, version, 'bin', name);
    if (existsSync(file)) return file;
  }
  return name;
}

function withDatabase(url: string, database: string, user?: { name: string; password: string }) {
  const result = new URL(url);
  result.pathname = `/${database}`;
  if (user) {
    result.username = user.name;
    result.password = user.password;
  }
  return result.toString();
}

async function sql(url: string, ...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

interface Running {
  readonly child: ChildProcess;
  readonly base: string;
  readonly output: string[];
}

const children: ChildProcess[] = [];

async function startProcess(env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, entryArgs('server/main.ts'), {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    const health = await fetch(`${base}/healthz`).catch(() => null);
    if (health?.ok) return { child, base, output };
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited with ${child.exitCode}: ${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not become healthy: ${output.join('')}`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The same browser (cookie jar) talking to another process. */
function on(base: string, from: Client): Client {
  const moved = new Client(base);
  for (const [name, value] of from.cookies) moved.cookies.set(name, value);
  return moved;
}

const SUITE = 'several server processes on one PostgreSQL';

describe.runIf(onPostgres(SUITE))(SUITE, () => {
  const admin = process.env.TEST_DATABASE_URL as string;
  const superuser = process.env.TEST_DATABASE_ADMIN_URL as string;
  const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const database = `admission_test_${suffix}`;
  const restored = `admission_test_${suffix}_restored`;
  const appRole = { name: `admission_app_${suffix}`, password: randomBytes(12).toString('hex') };
  let dataDir: string;
  let env: (name: string) => Record<string, string>;
  let a: Running;
  let b: Running;

  beforeAll(async () => {
    if (!process.env.TEST_DATABASE_ADMIN_URL)
      throw new Error(
        'TEST_DATABASE_ADMIN_URL (a superuser) is needed too: eval "$(bash .ci/postgres.sh)"',
      );
    const owner = new URL(admin).username;
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-multi-'));
    // docs/operations.md "Roles": the owner creates the database and lets the application role use
    // the tables it will create; the application role gets nothing else.
    await sql(
      admin,
      `CREATE ROLE ${appRole.name} LOGIN PASSWORD '${appRole.password}' NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE`,
      `CREATE DATABASE ${database}`,
    );
    await sql(
      withDatabase(admin, database),
      `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${appRole.name}`,
      `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO ${appRole.name}`,
    );
    env = (name) => ({
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: withDatabase(admin, name, appRole),
      DATABASE_MIGRATION_URL: withDatabase(admin, name),
      // Production refuses an http: origin off this machine (D132).
      PUBLIC_ORIGIN: 'http://localhost',
      SERVICE_TOKEN_SECRET: 's'.repeat(40),
      UPLOAD_SECRET: 'u'.repeat(40),
      STAFF_API_KEYS: `northfield=${STAFF_KEY}`,
      SMTP_URL: '',
      STORAGE: 'local',
    });
    // Both start at once on the empty database: one migrates, the other waits for the lock.
    [a, b] = await Promise.all([startProcess(env(database)), startProcess(env(database))]);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(children.map(stop));
    for (const name of [database, restored])
      await dropDatabase((statement) => sql(admin, statement), name).catch(() => undefined);
    await sql(admin, `DROP ROLE IF EXISTS ${appRole.name}`).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves one applicant from either process: account, session, answers, staff link, logout, documents', async () => {
    const email = 'moving@example.com';
    const viaA = new Client(a.base);
    expect(
      (await viaA.post('/public/signup', { username: email, password: PASSWORD })).status,
    ).toBe(200);
    const viaB = new Client(b.base);
    expect(
      (
        await viaB.post('/public/confirm', {
          username: email,
          code: await outboxCode(dataDir, email),
        })
      ).status,
    ).toBe(200);
    expect((await viaB.post('/public/login', { username: email, password: PASSWORD })).status).toBe(
      200,
    );

    // The session made on B saves through A; B reads what A saved.
    const sameOnA = on(a.base, viaB);
    const saved = await sameOnA.put('/api/answer', { first_name: 'Adelheid', city: 'Quuxville' });
    expect(saved.status).toBe(200);
    const read = await viaB.get('/api/profile');
    expect(read.status).toBe(200);
    expect(read.body.answer).toEqual({ first_name: 'Adelheid', city: 'Quuxville' });

    // A session made on A is valid on B; logging out on B ends it on A.
    const second = new Client(a.base);
    expect(
      (await second.post('/public/login', { username: email, password: PASSWORD })).status,
    ).toBe(200);
    const secondOnB = on(b.base, second);
    expect((await secondOnB.get('/api/profile')).status).toBe(200);
    expect((await secondOnB.post('/api/logout', {})).status).toBe(200);
    const ended = await second.get('/api/profile');
    expect(ended.status).toBe(401);
    expect(ended.body).toEqual({ message: serverMessages.sessionRequired });
    expect((await sameOnA.get('/api/profile')).status).toBe(200);

    // A staff link minted by B opens on A (SERVICE_TOKEN_SECRET is shared).
    const minted = await new Client(b.base).request(
      'POST',
      '/service/tokens',
      { email },
      { authorization: `Bearer ${STAFF_KEY}` },
    );
    expect(minted.status).toBe(200);
    const token = new URL(minted.body.url as string).searchParams.get('service_token') as string;
    const staff = await new Client(a.base).get(
      `/service/tmp-pdf?service_token=${encodeURIComponent(token)}`,
    );
    expect(staff.status).toBe(200);
    expect(staff.body.answer).toEqual({ first_name: 'Adelheid', city: 'Quuxville' });

    // A presigned upload from A is accepted by B (UPLOAD_SECRET and the storage are shared); the
    // conversion requested through B is completed by the queue of either process and seen on A.
    const presigned = (await sameOnA.post('/api/presigned-url', { answer_key: KEY })).body as {
      url: string;
      fields: Record<string, string>;
    };
    const form = new FormData();
    for (const [field, value] of Object.entries(presigned.fields)) form.append(field, value);
    form.append('file', new Blob([new Uint8Array(png())], { type: 'image/png' }), 'scan.png');
    const uploaded = await fetch(new URL(presigned.url, b.base), { method: 'POST', body: form });
    expect(uploaded.status).toBe(204);
    const queued = await viaB.post(`/api/pdf/document-answer/${KEY}`, {
      file_key: presigned.fields.key,
      file_name: 'scan.png',
    });
    expect(queued.status).toBe(202);
    let status = '';
    for (let i = 0; i < 300 && status !== 'COMPLETED' && status !== 'FAILED'; i++) {
      status = (await sameOnA.get(`/api/pdf/document-answer/${KEY}`)).body.status as string;
      if (status !== 'COMPLETED') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe('COMPLETED');
    expect((await viaB.get('/api/profile')).body.document_answer).toEqual({
      [KEY]: { file_name: 'scan.png', file_size: png().length },
    });

    // No process logged a secret or an answer.
    const logs = [...a.output, ...b.output].join('');
    for (const secret of [PASSWORD, 's'.repeat(40), 'u'.repeat(40), STAFF_KEY, token, 'Quuxville'])
      expect(logs).not.toContain(secret);
  }, 60_000);

  it('migrates one fresh database from several processes starting at once, each migration once', async () => {
    const fresh = `admission_test_${suffix}_fresh`;
    await sql(admin, `CREATE DATABASE ${fresh}`);
    try {
      const url = withDatabase(admin, fresh);
      const handles = await Promise.all(
        Array.from({ length: 4 }, () => openDatabase({ databaseUrl: url })),
      );
      for (const handle of handles) await handle.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query<{ n: number; distinct: number }>(
        'select count(*)::int as n, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations',
      );
      await client.end();
      expect(rows[0]?.n).toBe(rows[0]?.distinct);
      expect(rows[0]?.n).toBe(
        readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql')).length,
      );
    } finally {
      await dropDatabase((statement) => sql(admin, statement), fresh);
    }
  });

  it('restores a pg_dump backup into a new database that serves the same applicant', async () => {
    const dump = path.join(dataDir, 'backup.dump');
    await run(pgTool('pg_dump'), [
      '--format=custom',
      `--file=${dump}`,
      withDatabase(superuser, database),
    ]);
    await sql(admin, `CREATE DATABASE ${restored}`);
    await run(pgTool('pg_restore'), [
      '--exit-on-error',
      `--dbname=${withDatabase(superuser, restored)}`,
      dump,
    ]);
    await Promise.all([stop(a.child), stop(b.child)]);

    const c = await startProcess(env(restored));
    const client = new Client(c.base);
    expect(
      (await client.post('/public/login', { username: 'moving@example.com', password: PASSWORD }))
        .status,
    ).toBe(200);
    const profile = await client.get('/api/profile');
    expect(profile.body.answer).toEqual({ first_name: 'Adelheid', city: 'Quuxville' });
    expect(profile.body.document_answer).toEqual({
      [KEY]: { file_name: 'scan.png', file_size: png().length },
    });
    const wrong = await new Client(c.base).post('/public/login', {
      username: 'moving@example.com',
      password: 'Not-The-Password-1',
    });
    expect(wrong.status).toBe(400);
  }, 60_000);
});
