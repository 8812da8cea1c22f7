/**
 * SECURITY.md 7.17 (tenancy) and ASVS 8.4.1: tenant isolation enforced by the database as well as by
 * the code. Every table with a `tenant_id` column has PostgreSQL row-level security, ENABLEd and
 * FORCEd, with a policy that admits only the rows of the tenant the application set for the
 * connection (`app.tenant_id`; docs/decisions/ D56).
 *
 * PostgreSQL only (TEST_DATABASE_URL; CI always sets it), as the test role `app_test`: not a
 * superuser, no BYPASSRLS, and the owner of the tables, so it is FORCE that subjects it to the
 * policies. PGlite is not used here: it connects as a superuser, which passes every policy even when
 * forced, so it would prove nothing (its tables carry the same, unused policies).
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceMessages } from '../../contract';
import { requestServiceLink } from '../../server/cli/serviceToken';
import { configFromEnv } from '../../server/config';
import { bypassesRowSecurity } from '../../server/db/client';
import { runInTenant, runWithoutTenant } from '../../server/db/tenantScope';
import { JobQueue, type Job } from '../../server/jobs/queue';
import { png } from '../server/documentFiles';
import { freePort } from '../fixtures/freePort';
import {
  PASSWORD,
  registeredClient,
  startServer,
  type Client,
  type TestServer,
} from '../server/harness';
import { enrolledStaff } from '../server/staffHelpers';
import { onPostgres } from '../server/postgresOnly';
import { entryArgs } from '../server/entryArgs';

const run = promisify(execFile);

const NORTH = 'northfield';
const SOUTH = 'southfield';
const SOUTH_HOST = 'south.test';
const HOST: Record<string, string | undefined> = { [NORTH]: undefined, [SOUTH]: SOUTH_HOST };
const STAFF_KEYS: Record<string, string> = { [NORTH]: 'n'.repeat(40), [SOUTH]: 's'.repeat(40) };
const OTHER: Record<string, string> = { [NORTH]: SOUTH, [SOUTH]: NORTH };
/** The tables outside row-level security, and why (D56). */
const OUTSIDE_RLS = [
  'jobs', // claimed across tenants by the queue; payloads carry ids only
  'key_reencryption_runs', // when each re-encryption ran; names no tenant
  'tenants', // the tenant directory, read at start; no applicant data
];

type Rows<T> = { rows: T[] };

/** The database's own message for a refused statement (drizzle wraps it as the error's cause). */
async function refusal(statement: Promise<unknown>): Promise<string> {
  try {
    await statement;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? cause.message : String(error);
  }
  throw new Error('the statement was not refused');
}
const WITH_CHECK = /^new row violates row-level security policy for table/;

const SUITE = 'SECURITY.md 7.17 row-level security on PostgreSQL';

describe.runIf(onPostgres(SUITE))(SUITE, () => {
  let server: TestServer;
  let admin: pg.Client;
  /** The tables under row-level security: every public table with a tenant_id column. */
  let rlsTables: string[] = [];
  const applicants: Record<string, Client> = {};

  /** A statement through the application's own database handle (its pool and role). */
  const query = async <T>(statement: ReturnType<typeof sql>) =>
    ((await server.built.database.db.execute(statement)) as unknown as Rows<T>).rows;
  const inTenant = <T>(tenant: string, fn: () => Promise<T>) => runInTenant(tenant, fn);

  async function uploadPng(client: Client, key: string) {
    const presigned = (await client.post('/api/presigned-url', { answer_key: key })).body as {
      url: string;
      fields: Record<string, string>;
    };
    const form = new FormData();
    for (const [field, value] of Object.entries(presigned.fields)) form.append(field, value);
    form.append('file', new Blob([new Uint8Array(png())], { type: 'image/png' }), 'scan.png');
    const uploaded = await fetch(new URL(presigned.url, server.url), {
      method: 'POST',
      body: form,
    });
    expect(uploaded.status).toBe(204);
    const queued = await client.post(`/api/pdf/document-answer/${key}`, {
      file_key: presigned.fields.key,
      file_name: 'scan.png',
    });
    expect(queued.status).toBe(202);
  }

  /** Rows of both tenants in every table, made through the request paths where there is one. */
  async function populate(tenant: string) {
    const host = HOST[tenant];
    const client = await registeredClient(server, 'ada@example.com', PASSWORD, host);
    applicants[tenant] = client;
    // An unconfirmed sign-up keeps its confirmation code.
    expect(
      (
        await server
          .client(host)
          .post('/public/signup', { username: 'pending@example.com', password: PASSWORD })
      ).status,
    ).toBe(200);
    // A failed login (throttle and failure streak), a reset link, temporary answers.
    const failed = await server
      .client(host)
      .post('/public/login', { username: 'ada@example.com', password: 'Wrong-Password-99' });
    expect(failed.status).toBe(400);
    expect(
      (await server.client(host).post('/public/forgot-password', { username: 'ada@example.com' }))
        .status,
    ).toBe(200);
    expect(
      (await server.client(host).post('/public/tmp', { answers: { first_name: 'Anon' } })).status,
    ).toBe(200);
    expect((await client.put('/api/answer', { first_name: `Ada of ${tenant}` })).status).toBe(200);
    expect((await client.post('/api/web-status', { web_status: 'started' })).status).toBe(204);
    // A staff link, revoked.
    const minted = await server
      .client(host)
      .request(
        'POST',
        '/service/tokens',
        { email: 'ada@example.com' },
        { authorization: `Bearer ${STAFF_KEYS[tenant]}` },
      );
    expect(minted.status).toBe(200);
    const revoked = await server
      .client(host)
      .request('DELETE', `/service/tokens/${minted.body.id as string}`, undefined, {
        authorization: `Bearer ${STAFF_KEYS[tenant]}`,
      });
    expect(revoked.status).toBe(200);
    // A document, converted by the queue (the job runs in the payload's tenant scope).
    await uploadPng(client, 'transcript_file');
    // Staff (D103): invited, joined, enrolled (recovery codes, a session, the audit log), and a
    // console link for the applicant.
    const staff = await enrolledStaff(server, `dean@${tenant}.edu`, 'admin', host);
    // A staff reset link (D166).
    expect(
      (
        await server
          .client(host)
          .post('/staff/api/forgot-password', { email: `dean@${tenant}.edu` })
      ).status,
    ).toBe(200);
    const listed = await staff.client.get('/staff/api/applications');
    expect(listed.body.total).toBe(1);
    const link = await staff.client.post(
      `/staff/api/applications/${listed.body.rows[0].id as string}/links`,
      {},
    );
    expect(link.status).toBe(200);
    // The office's CSV columns (D168).
    expect(
      (await staff.client.put('/staff/api/export-columns', { columns: ['first_name'] })).status,
    ).toBe(200);
    // A ZIP of the PDFs (D169), built by the worker.
    expect((await staff.client.post('/staff/api/pdf-bundles', {})).status).toBe(202);
    // The application PDF has no request path on this branch yet: its row is written directly.
    await inTenant(tenant, () =>
      query(sql`insert into application_pdfs (tenant_id, user_id, status, source, requested_at, updated_at)
        select tenant_id, id, 'COMPLETED', 'digest', now(), now() from users where email = 'ada@example.com'`),
    );
    // A filed deletion request and an object still to remove (D152): written directly, as the
    // routes that file them delete or submit the account the rest of this seed reads.
    await inTenant(tenant, () =>
      query(sql`insert into deletion_requests (tenant_id, user_id, requested_at)
        select tenant_id, id, now() from users where email = 'ada@example.com'`),
    );
    await inTenant(tenant, () =>
      query(sql`insert into object_deletions (tenant_id, object_key, created_at)
        values (${tenant}, ${`${tenant}/gone/object`}, now())`),
    );
  }

  async function waitFor(check: () => Promise<boolean>, what: string) {
    for (let i = 0; i < 400; i++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  beforeAll(async () => {
    if (!process.env.TEST_DATABASE_ADMIN_URL)
      throw new Error(
        'TEST_DATABASE_ADMIN_URL (a superuser) is needed too: eval "$(bash .ci/postgres.sh)"',
      );
    server = await startServer({
      database: 'postgres',
      config: { staffApiKeys: STAFF_KEYS },
      tenants: [
        {
          id: SOUTH,
          name: 'Southfield',
          definitionId: 'northfield-undergraduate',
          hosts: [SOUTH_HOST],
        },
      ],
    });
    admin = new pg.Client({
      connectionString: (() => {
        const url = new URL(process.env.TEST_DATABASE_ADMIN_URL as string);
        url.pathname = new URL(server.databaseUrl as string).pathname;
        return url.toString();
      })(),
    });
    await admin.connect();
    rlsTables = (
      await admin.query<{ table_name: string }>(
        `select table_name from information_schema.columns
          where table_schema = 'public' and column_name = 'tenant_id' order by table_name`,
      )
    ).rows.map((row) => row.table_name);
    await populate(NORTH);
    await populate(SOUTH);
    for (const tenant of [NORTH, SOUTH]) {
      const client = applicants[tenant] as Client;
      await waitFor(
        async () =>
          (await client.get('/api/pdf/document-answer/transcript_file')).body.status ===
          'COMPLETED',
        `the conversion of ${tenant}`,
      );
    }
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await server?.close();
  });

  it('7.17 puts every table with a tenant_id under ENABLEd and FORCEd RLS with the tenant policy; only tenants, jobs and the re-encryption runs stay outside', async () => {
    expect(rlsTables.length).toBeGreaterThanOrEqual(16);
    expect(rlsTables).toContain('application_pdfs');
    const { rows } = await admin.query<{
      relname: string;
      relrowsecurity: boolean;
      relforcerowsecurity: boolean;
    }>(
      `select relname, relrowsecurity, relforcerowsecurity from pg_class
        where relnamespace = 'public'::regnamespace and relkind = 'r' order by relname`,
    );
    const outside = rows.filter((row) => !rlsTables.includes(row.relname));
    expect(outside.map((row) => row.relname)).toEqual(OUTSIDE_RLS);
    for (const row of rows.filter((r) => rlsTables.includes(r.relname))) {
      expect(row, row.relname).toMatchObject({ relrowsecurity: true, relforcerowsecurity: true });
    }
    const policies = await admin.query<{
      tablename: string;
      cmd: string;
      qual: string;
      with_check: string;
    }>(`select tablename, cmd, qual, with_check from pg_policies where schemaname = 'public'`);
    for (const table of rlsTables) {
      const own = policies.rows.filter((policy) => policy.tablename === table);
      expect(own, table).toHaveLength(1);
      expect(own[0]?.cmd).toBe('ALL');
      for (const clause of [own[0]?.qual, own[0]?.with_check])
        expect(clause, table).toBe("(tenant_id = current_setting('app.tenant_id'::text, true))");
    }
  });

  it("7.17 the application's role is no superuser, has no BYPASSRLS, and owns the tables: FORCE is what binds it", async () => {
    const [role] = await query<{ name: string; rolsuper: boolean; rolbypassrls: boolean }>(
      sql`select current_user as name, rolsuper, rolbypassrls from pg_roles where rolname = current_user`,
    );
    expect(role).toEqual({ name: 'app_test', rolsuper: false, rolbypassrls: false });
    expect(await bypassesRowSecurity(server.built.database)).toBe(false);
    const owners = await admin.query<{ owner: string }>(
      `select distinct pg_get_userbyid(relowner) as owner from pg_class
        where relnamespace = 'public'::regnamespace and relkind = 'r'`,
    );
    expect(owners.rows).toEqual([{ owner: 'app_test' }]);

    // Without FORCE the owner would pass its own policies: shown in a transaction that is rolled back.
    const owner = new pg.Client({ connectionString: server.databaseUrl });
    await owner.connect();
    try {
      await owner.query('begin');
      await owner.query("select set_config('app.tenant_id', $1, true)", [NORTH]);
      const forced = await owner.query<{ n: number }>(
        'select count(distinct tenant_id)::int as n from users',
      );
      expect(forced.rows[0]?.n).toBe(1);
      await owner.query('alter table users no force row level security');
      const unforced = await owner.query<{ n: number }>(
        'select count(distinct tenant_id)::int as n from users',
      );
      expect(unforced.rows[0]?.n).toBe(2);
    } finally {
      await owner.query('rollback');
      await owner.end();
    }
  });

  it('7.17 both tenants have rows in every RLS table (seen by the superuser), so what follows is not vacuous', async () => {
    for (const table of rlsTables) {
      const { rows } = await admin.query<{ tenant_id: string }>(
        `select distinct tenant_id from ${table} order by tenant_id`,
      );
      expect(
        rows.map((row) => row.tenant_id),
        table,
      ).toEqual([NORTH, SOUTH]);
    }
  });

  it("7.17 a raw query in one tenant's scope sees none of the other's rows in any RLS table, even when it names them", async () => {
    for (const tenant of [NORTH, SOUTH]) {
      for (const table of rlsTables) {
        const seen = await inTenant(tenant, () =>
          query<{ tenant_id: string }>(
            sql`select distinct tenant_id from ${sql.identifier(table)} order by tenant_id`,
          ),
        );
        expect(
          seen.map((row) => row.tenant_id),
          `${table} in ${tenant}`,
        ).toEqual([tenant]);
        const named = await inTenant(tenant, () =>
          query<{ n: number }>(
            sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${OTHER[tenant]}`,
          ),
        );
        expect(named[0]?.n, `${table} in ${tenant}`).toBe(0);
      }
    }
  });

  it('7.17 without a tenant scope a query sees no row of any RLS table, and cannot write one (fail closed)', async () => {
    for (const table of rlsTables) {
      const rows = await runWithoutTenant(() =>
        query<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`),
      );
      expect(rows[0]?.n, table).toBe(0);
    }
    expect(
      await refusal(
        runWithoutTenant(() =>
          query(sql`insert into tmp_answers (token_hash, tenant_id, answers, expires_at, created_at)
            values ('unscoped', ${NORTH}, '{}'::jsonb, now(), now())`),
        ),
      ),
    ).toMatch(WITH_CHECK);
    // The tables outside RLS stay readable: the directory, and the queue that claims across tenants.
    const [tenants] = await runWithoutTenant(() =>
      query<{ n: number }>(sql`select count(*)::int as n from tenants`),
    );
    expect(tenants?.n).toBe(2);
  });

  it("7.17 an INSERT or UPDATE of a row with another tenant's id is refused (WITH CHECK); UPDATE and DELETE of its rows touch nothing", async () => {
    expect(
      await refusal(
        inTenant(NORTH, () =>
          query(sql`insert into tmp_answers (token_hash, tenant_id, answers, expires_at, created_at)
            values ('planted', ${SOUTH}, '{}'::jsonb, now(), now())`),
        ),
      ),
    ).toMatch(WITH_CHECK);
    expect(
      await refusal(
        inTenant(NORTH, () => query(sql`update applications set tenant_id = ${SOUTH}`)),
      ),
    ).toMatch(WITH_CHECK);

    const before = (
      await admin.query<{ answers: unknown }>(
        `select answers from applications where tenant_id = $1`,
        [SOUTH],
      )
    ).rows;
    const updated = await inTenant(NORTH, async () =>
      server.built.database.db.execute(
        sql`update applications set answers = '{"first_name":"Overwritten"}'::jsonb where tenant_id = ${SOUTH}`,
      ),
    );
    expect((updated as unknown as { rowCount: number }).rowCount).toBe(0);
    const deleted = await inTenant(NORTH, async () =>
      server.built.database.db.execute(sql`delete from sessions where tenant_id = ${SOUTH}`),
    );
    expect((deleted as unknown as { rowCount: number }).rowCount).toBe(0);
    expect(
      (await admin.query(`select answers from applications where tenant_id = $1`, [SOUTH])).rows,
    ).toEqual(before);
    expect(
      (await admin.query(`select count(*)::int as n from sessions where tenant_id = $1`, [SOUTH]))
        .rows[0],
    ).not.toEqual({ n: 0 });
  });

  it('7.17 pooled connections never carry one scope into another: 300 interleaved queries and transactions', async () => {
    const scopes = [NORTH, SOUTH, undefined] as const;
    const probes = Array.from({ length: 300 }, async (_, i) => {
      const scope = scopes[i % 3];
      const probe = async () => {
        const statement = sql`select current_setting('app.tenant_id', true) as setting,
          (select coalesce(string_agg(distinct tenant_id, ','), '') from users) as seen`;
        if (i % 2 === 0) return query<{ setting: string; seen: string }>(statement);
        return server.built.database.db.transaction(async (tx) => {
          const result = (await tx.execute(statement)) as unknown as Rows<{
            setting: string;
            seen: string;
          }>;
          return result.rows;
        });
      };
      const [row] = scope ? await inTenant(scope, probe) : await runWithoutTenant(probe);
      return { scope: scope ?? '', ...row };
    });
    const results = await Promise.all(probes);
    for (const result of results) {
      expect(result.setting).toBe(result.scope);
      expect(result.seen).toBe(result.scope);
    }
    // A drizzle query is lazy (it starts when awaited): returned unawaited, it still runs in the scope.
    const lazy = (await runInTenant(SOUTH, () =>
      server.built.database.db.execute(
        sql`select current_setting('app.tenant_id', true) as setting`,
      ),
    )) as unknown as Rows<{ setting: string }>;
    expect(lazy.rows).toEqual([{ setting: SOUTH }]);
  });

  it('7.17 concurrent requests of both tenants each see their own applicant only', async () => {
    const reads = Array.from({ length: 40 }, async (_, i) => {
      const tenant = i % 2 === 0 ? NORTH : SOUTH;
      const profile = await (applicants[tenant] as Client).get('/api/profile');
      return { tenant, status: profile.status, answer: profile.body.answer as unknown };
    });
    for (const read of await Promise.all(reads)) {
      expect(read.status).toBe(200);
      expect(read.answer).toEqual({ first_name: `Ada of ${read.tenant}` });
    }
  });

  it('7.17 the request paths work under RLS: sign-up, login, answers, documents, staff link, lookup', async () => {
    for (const tenant of [NORTH, SOUTH]) {
      const host = HOST[tenant];
      const client = applicants[tenant] as Client;
      const profile = await client.get('/api/profile');
      expect(profile.body.username).toBe('ada@example.com');
      expect(profile.body.web_status).toEqual([{ web_status: 'started' }]);
      expect(profile.body.document_answer).toEqual({
        transcript_file: { file_name: 'scan.png', file_size: png().length },
      });
      const login = await server
        .client(host)
        .post('/public/login', { username: 'ada@example.com', password: PASSWORD });
      expect(login.status).toBe(200);
      const link = await server
        .client(host)
        .request(
          'POST',
          '/service/tokens',
          { email: 'ada@example.com' },
          { authorization: `Bearer ${STAFF_KEYS[tenant]}` },
        );
      const token = new URL(link.body.url as string).searchParams.get('service_token') as string;
      const staff = await server
        .client(host)
        .get(`/service/tmp-pdf?service_token=${encodeURIComponent(token)}`);
      expect(staff.status).toBe(200);
      expect(staff.body.answer).toEqual({ first_name: `Ada of ${tenant}` });
      const found = await server
        .client(host)
        .get('/lookup/find?text=lincoln&category=hs_ceeb&max_results=1');
      expect(found.status).toBe(200);
      expect(found.body).toHaveLength(1);
    }
  });

  it('7.17 a job runs in the scope of its payload tenant; a request cannot queue a job for another tenant', async () => {
    const queue = new JobQueue(server.built.database.db, { now: () => new Date() });
    const seen: { setting: string; users: string }[] = [];
    queue.register('rls-probe', {
      async run(_job: Job) {
        const [row] = await query<{ setting: string; users: string }>(
          sql`select current_setting('app.tenant_id', true) as setting,
            (select coalesce(string_agg(distinct tenant_id, ','), '') from users) as users`,
        );
        seen.push(row as { setting: string; users: string });
      },
    });
    await queue.enqueue('rls-probe', { tenantId: SOUTH });
    await queue.enqueue('rls-probe', {});
    for (let more = true; more;) more = await queue.runOnce();
    // Claims are fair between owners: the tenant's owner may have finished jobs of earlier cases
    // within the fairness window, so the tenant-less job can run first. Scope matters, not order.
    const bySetting = (a: { setting: string }, b: { setting: string }) => a.setting.localeCompare(b.setting);
    expect(seen.toSorted(bySetting)).toEqual([
      { setting: '', users: '' },
      { setting: SOUTH, users: SOUTH },
    ]);
    await expect(
      inTenant(NORTH, () => queue.enqueue('rls-probe', { tenantId: SOUTH })),
    ).rejects.toThrow(/must carry it as its tenantId/);
  });

  it('7.17 the command-line tools act on PostgreSQL within the one tenant they are given', async () => {
    const port = await freePort(); // nothing listens there: the service-token CLI opens the database
    const config = configFromEnv({
      NODE_ENV: 'test',
      DATA_DIR: server.dataDir,
      PORT: String(port),
      DATABASE_URL: server.databaseUrl,
      PUBLIC_ORIGIN: 'http://app.test',
    });
    const south = await requestServiceLink({
      config,
      email: 'ada@example.com',
      host: SOUTH_HOST,
    });
    expect(south.via).toBe('database');
    const token = new URL(south.url).searchParams.get('service_token') as string;
    const staff = await server
      .client(SOUTH_HOST)
      .get(`/service/tmp-pdf?service_token=${encodeURIComponent(token)}`);
    expect(staff.body.answer).toEqual({ first_name: `Ada of ${SOUTH}` });
    // An address of the other tenant only is unknown here.
    await inTenant(NORTH, () =>
      query(sql`insert into users (tenant_id, email, password_hash, created_at)
        values (${NORTH}, 'north-only@example.com', 'x', now())`),
    );
    await expect(
      requestServiceLink({ config, email: 'north-only@example.com', host: SOUTH_HOST }),
    ).rejects.toThrow(serviceMessages.noSuchApplicant);

    const csv = 'ceeb,name,city,state,zip\n4321,Southfield Only College,Albany,NY,12208\n';
    const file = `${server.dataDir}/colleges.csv`;
    await writeFile(file, csv);
    const { stdout } = await run(
      process.execPath,
      [...entryArgs('scripts/lookup-import.ts'), 'college_ceeb', file, '--tenant', SOUTH],
      {
        env: {
          ...process.env,
          DATABASE_URL: server.databaseUrl,
          DATA_DIR: server.dataDir,
          NODE_ENV: 'test',
        },
      },
    );
    expect(stdout).toContain(`Imported 1 entries into the college_ceeb list of tenant "${SOUTH}"`);
    const detail = '/lookup/find?id=4321&category=college_ceeb';
    const imported = await server.client(SOUTH_HOST).get(detail);
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ name: 'Southfield Only College' });
    expect((await server.client().get(detail)).status).toBe(404);
  }, 60_000);

  // Fastify runs the rest of a request after reading its body in the request's async context, so the
  // scope entered by the onRequest hook holds through the handler even for a slow body.
  it('7.17 a request body that arrives in pieces, after a pause, is still saved in the tenant of the request', async () => {
    const client = applicants[SOUTH] as Client;
    const body = JSON.stringify({ city: 'Slowtown' });
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(new URL('/api/answer', server.url), {
        method: 'PUT',
        headers: {
          host: SOUTH_HOST,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.flushHeaders();
      setTimeout(() => request.write(body.slice(0, 5)), 100);
      setTimeout(() => request.end(body.slice(5)), 200);
    });
    expect(status).toBe(200);
    expect((await client.get('/api/profile')).body.answer).toMatchObject({ city: 'Slowtown' });
  });
});
