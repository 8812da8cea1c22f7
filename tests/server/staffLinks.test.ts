/**
 * Every service link in the console (D131): `GET /staff/api/links` lists the tenant's
 * links newest first with the application each opens, who made it, its state and when it was last
 * opened; admins only; paged by seeking; audited as a list; tenants apart (in the code and, on
 * PostgreSQL, in the database's row-level security); parallel revocations of one link revoke it
 * once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceMessages } from '../../contract';
import { staffMessages, type LinkListRow } from '../../contract/staff';
import { staffServiceLinks } from '../../server/db/schema';
import { runInTenant } from '../../server/db/tenantScope';
import {
  databaseKinds,
  logCollector,
  registeredClient,
  startServer,
  type Client,
  type TestServer,
} from './harness';
import { enrolledStaff, signIn, type SignedInStaff } from './staffHelpers';

const SOUTH_HOST = 'south.test';
const BURST = 30;

const tokenOf = (url: string) => new URL(url).searchParams.get('service_token') as string;

describe.each(databaseKinds)('every service link in the console, on %s', (database) => {
  let server: TestServer;
  let admin: SignedInStaff;
  let reader: SignedInStaff;
  const ids: Record<string, string> = {};
  const lines: string[] = [];

  const adminClient = () => signIn(server, 'dean@northfield.edu', admin.secret);

  async function mint(client: Client, applicant: string) {
    const minted = await client.post(`/staff/api/applications/${ids[applicant]}/links`, {});
    expect(minted.status).toBe(200);
    return minted.body as { id: string; url: string };
  }

  async function allLinks(client: Client, query = '') {
    const page = await client.get(`/staff/api/links${query}`);
    expect(page.status, query).toBe(200);
    return page.body as {
      rows: LinkListRow[];
      total: number;
      offset: number;
      size: number;
      first: string | null;
      last: string | null;
    };
  }

  beforeAll(async () => {
    server = await startServer({
      database,
      logStream: logCollector(lines),
      env: { LOG_LEVEL: 'info' },
      config: { publicRateLimit: 1_000_000 },
      tenants: [
        {
          id: 'southfield',
          name: 'Southfield',
          definitionId: 'northfield-undergraduate',
          hosts: [SOUTH_HOST],
        },
      ],
    });
    admin = await enrolledStaff(server, 'dean@northfield.edu', 'admin');
    reader = await enrolledStaff(server, 'reader@northfield.edu', 'reader');
    for (const [email, first, last] of [
      ['ada@example.com', 'Ada', 'Lovelace'],
      ['grace@example.com', 'Grace', 'Hopper'],
    ] as const) {
      const applicant = await registeredClient(server, email);
      await applicant.put('/api/answer', { first_name: first, last_name: last });
    }
    const list = await admin.client.get('/staff/api/applications');
    for (const row of list.body.rows as { id: string; email: string }[]) ids[row.email] = row.id;
  }, 120_000);
  afterAll(async () => server?.close());

  it('an admin sees every link, newest first: the application, who made it, live, never opened; then opened', async () => {
    const byReader = await mint(reader.client, 'ada@example.com');
    server.clock.advance(1_000);
    const byAdmin = await mint(admin.client, 'grace@example.com');
    const page = await allLinks(admin.client);
    expect(page.total).toBe(2);
    expect(page.rows.map((row) => row.id)).toEqual([byAdmin.id, byReader.id]);
    expect(page.rows[1]).toMatchObject({
      applicant_id: ids['ada@example.com'],
      applicant_name: 'Ada Lovelace',
      applicant_email: 'ada@example.com',
      created_by: 'reader@northfield.edu',
      state: 'live',
      revoked_at: null,
      opened_at: null,
    });
    expect(page.rows[0]?.created_by).toBe('dean@northfield.edu');

    // A reviewer opens Ada's link: the list says when.
    const opened = await server
      .client()
      .get(`/service/tmp-pdf?service_token=${encodeURIComponent(tokenOf(byReader.url))}`);
    expect(opened.status).toBe(200);
    const after = await allLinks(admin.client);
    expect(after.rows[1]?.opened_at).toBe(server.clock.now().toISOString());
    // The application's own list says the same.
    const own = await admin.client.get(`/staff/api/applications/${ids['ada@example.com']}/links`);
    expect(own.body.links[0]).toMatchObject({ id: byReader.id, state: 'live' });
    expect(own.body.links[0].opened_at).not.toBeNull();

    // Listing is a read of names and addresses: audited, as the applications list is.
    const audit = await admin.client.get('/staff/api/audit');
    const listed = (audit.body.rows as { actor: string; action: string }[]).filter(
      (entry) => entry.action === 'link.list',
    );
    expect(listed.length).toBe(2);
    expect(new Set(listed.map((entry) => entry.actor))).toEqual(new Set(['dean@northfield.edu']));
  });

  it('a reader is refused every link with the role refusal, a security event', async () => {
    const from = lines.length;
    const refused = await reader.client.get('/staff/api/links');
    expect(refused).toMatchObject({ status: 403, body: { message: staffMessages.forbidden } });
    const logged = lines.slice(from);
    expect(logged.filter((line) => line.includes('"staff.role_refused"'))).toHaveLength(1);
    // The reader still sees the links of an application they open.
    const own = await reader.client.get(`/staff/api/applications/${ids['ada@example.com']}/links`);
    expect(own.status).toBe(200);
  });

  it('pages of 25 by seeking: forward, backward and the last page give every link once, in order', async () => {
    admin = { ...admin, client: await adminClient() };
    // Two links share each second, so the token id breaks ties in the order.
    for (let i = 0; i < 58; i++) {
      await mint(admin.client, i % 2 ? 'ada@example.com' : 'grace@example.com');
      if (i % 2) server.clock.advance(1_000);
    }
    const first = await allLinks(admin.client);
    expect(first.total).toBe(60);
    const seen = [...first.rows];
    let page = first;
    while (page.offset + page.rows.length < page.total) {
      page = await allLinks(admin.client, `?after=${page.last}`);
      expect(page.offset).toBe(seen.length);
      seen.push(...page.rows);
    }
    expect(seen).toHaveLength(60);
    expect(new Set(seen.map((row) => row.id)).size).toBe(60);
    const times = seen.map((row) => row.created_at);
    expect(times).toEqual([...times].sort().reverse());

    const last = await allLinks(admin.client, '?last=1');
    expect(last).toMatchObject({ offset: 50, total: 60 });
    expect(last.rows.map((row) => row.id)).toEqual(seen.slice(50).map((row) => row.id));
    const before = await allLinks(admin.client, `?before=${last.first}`);
    expect(before.offset).toBe(25);
    expect(before.rows.map((row) => row.id)).toEqual(seen.slice(25, 50).map((row) => row.id));
    const fifty = await allLinks(admin.client, '?size=50');
    expect(fifty.rows.map((row) => row.id)).toEqual(seen.slice(0, 50).map((row) => row.id));

    // A made-up cursor is the lists' refusal.
    for (const cursor of [
      'bm90LWpzb24',
      'W1tdLFtdXQ',
      'WyJ5ZXN0ZXJkYXkiLCJhYmNkZWZnaGlqa2xtbm9wIl0',
    ]) {
      const refused = await admin.client.get(`/staff/api/links?after=${cursor}`);
      expect(refused, cursor).toMatchObject({
        status: 400,
        body: { message: staffMessages.badFilter },
      });
    }
  });

  it(`${BURST} parallel revocations of one link: no 5xx, every answer says revoked, one audit row; the link is refused`, async () => {
    admin = { ...admin, client: await adminClient() };
    const link = await mint(admin.client, 'ada@example.com');
    const responses = await Promise.all(
      Array.from({ length: BURST }, () =>
        admin.client.request(
          'DELETE',
          `/staff/api/applications/${ids['ada@example.com']}/links/${link.id}`,
        ),
      ),
    );
    for (const response of responses)
      expect(response).toMatchObject({
        status: 200,
        body: { message: staffMessages.linkRevoked },
      });
    const audit = await admin.client.get('/staff/api/audit');
    const revoked = (audit.body.rows as { action: string }[]).filter(
      (entry) => entry.action === 'link.revoked',
    );
    expect(revoked).toHaveLength(1);
    const row = (await allLinks(admin.client)).rows.find((entry) => entry.id === link.id);
    expect(row?.state).toBe('revoked');
    const opened = await server
      .client()
      .get(`/service/tmp-pdf?service_token=${encodeURIComponent(tokenOf(link.url))}`);
    expect(opened).toMatchObject({ status: 401, body: { message: serviceMessages.tokenInvalid } });
    // A link of another application, or none, is not found.
    const wrong = await admin.client.request(
      'DELETE',
      `/staff/api/applications/${ids['grace@example.com']}/links/${link.id}`,
    );
    expect(wrong).toMatchObject({ status: 404, body: { message: staffMessages.noSuchLink } });
  });

  it('a link expires after its hour: the list says so, and there is nothing to revoke', async () => {
    admin = { ...admin, client: await adminClient() };
    const link = await mint(admin.client, 'grace@example.com');
    server.clock.advance(61 * 60_000);
    admin = { ...admin, client: await adminClient() };
    const row = (await allLinks(admin.client)).rows.find((entry) => entry.id === link.id);
    expect(row?.state).toBe('expired');
  });

  it('staff of another tenant see none of the links and revoke none; the database keeps them apart too', async () => {
    admin = { ...admin, client: await adminClient() };
    const link = await mint(admin.client, 'grace@example.com');
    const southAdmin = await enrolledStaff(server, 'dean@southfield.edu', 'admin', SOUTH_HOST);
    const south = await allLinks(southAdmin.client);
    expect(south).toMatchObject({ total: 0, rows: [], first: null, last: null });
    const revoke = await southAdmin.client.request(
      'DELETE',
      `/staff/api/applications/${ids['grace@example.com']}/links/${link.id}`,
    );
    expect(revoke.status).toBe(404);
    const north = (await allLinks(admin.client)).rows.find((entry) => entry.id === link.id);
    expect(north?.state).toBe('live');

    const db = server.built.database.db;
    const seenBy = (tenant: string) =>
      runInTenant(tenant, () => db.select().from(staffServiceLinks));
    expect((await seenBy('northfield')).length).toBeGreaterThan(60);
    // PGlite connects as a superuser, whom no policy holds (tests/security/rls.test.ts).
    if (database === 'postgres') expect(await seenBy('southfield')).toEqual([]);
  });
});
