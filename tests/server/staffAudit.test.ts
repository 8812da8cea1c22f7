/**
 * The audit log for people (D156): `GET /staff/api/audit` pages the whole history by seeking, newest
 * first, each event with the applicant's name; it filters by who, what, which applicant and the
 * days of the institution's time zone; search-as-you-type leaves one row per settled search, in a
 * burst too; admins only; tenants apart (in the code and, on PostgreSQL, in row-level security).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, staffMessages, type AuditPage } from '../../contract/staff';
import { staffAudit } from '../../server/db/schema';
import { runInTenant } from '../../server/db/tenantScope';
import { SEARCH_FOLD_MS } from '../../server/staff/audit';
import { databaseKinds, registeredClient, startServer, type TestServer } from './harness';
import { enrolledStaff, signIn, type SignedInStaff } from './staffHelpers';

const SOUTH_HOST = 'south.test';
const BURST = 30;

describe.each(databaseKinds)('the audit log for people, on %s', (database) => {
  let server: TestServer;
  let admin: SignedInStaff;
  let reader: SignedInStaff;
  const ids: Record<string, string> = {};
  const staffIds: Record<string, string> = {};

  const adminClient = async () =>
    (admin = { ...admin, client: await signIn(server, 'dean@northfield.edu', admin.secret) });
  const readerClient = async () =>
    (reader = { ...reader, client: await signIn(server, 'reader@northfield.edu', reader.secret) });

  async function auditOf(query = '', client = admin.client): Promise<AuditPage> {
    const page = await client.get(`/staff/api/audit${query}`);
    expect(page.status, query).toBe(200);
    return page.body as unknown as AuditPage;
  }

  /** The reader's searches in the log. */
  const searchesOf = async (who: string) =>
    (await auditOf(`?who=${staffIds[who]}&what=application.list&size=100`)).rows.filter((row) =>
      row.detail?.startsWith('search: yes'),
    );

  beforeAll(async () => {
    server = await startServer({
      database,
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
      ['maria@example.com', 'Maria', 'Gonzalez-Whitfield'],
      ['grace@example.com', 'Grace', 'Hopper'],
    ] as const) {
      const applicant = await registeredClient(server, email);
      await applicant.put('/api/answer', { first_name: first, last_name: last });
    }
    const list = await admin.client.get('/staff/api/applications');
    for (const row of list.body.rows as { id: string; email: string }[]) ids[row.email] = row.id;
    const staff = await admin.client.get('/staff/api/staff');
    for (const member of staff.body.staff as { id: string; email: string }[])
      staffIds[member.email] = member.id;
  }, 120_000);
  afterAll(async () => server?.close());

  it('each event with its applicant by name, newest first; the command line says so', async () => {
    server.clock.advance(60_000);
    await readerClient();
    expect(
      (await reader.client.get(`/staff/api/applications/${ids['maria@example.com']}`)).status,
    ).toBe(200);
    const page = await auditOf();
    expect(page.rows[0]).toMatchObject({
      actor: 'reader@northfield.edu',
      action: 'application.read',
      applicant_id: ids['maria@example.com'],
      applicant_name: 'Maria Gonzalez-Whitfield',
    });
    // Newest first, each event one of the codes the console has words for.
    const times = page.rows.map((row) => row.at);
    expect(times).toEqual([...times].sort().reverse());
    for (const row of page.rows) expect(AUDIT_ACTIONS).toContain(row.action);
    const cli = await auditOf('?who=cli');
    expect(cli.rows.map((row) => [row.actor, row.action])).toEqual([
      ['cli', 'staff.added'],
      ['cli', 'staff.added'],
    ]);
    expect(cli.rows.every((row) => row.applicant_name === null)).toBe(true);
  });

  it('the whole history, not the newest 200: pages by seeking, forward, backward and the last page', async () => {
    await adminClient();
    // 230 listings, two to a second, so the id breaks ties in the order.
    for (let i = 0; i < 230; i++) {
      expect((await admin.client.get('/staff/api/applications')).status).toBe(200);
      if (i % 2) server.clock.advance(1_000);
    }
    const query = `?who=${staffIds['dean@northfield.edu']}&what=application.list`;
    const first = await auditOf(query);
    expect(first.size).toBe(50);
    const total = first.total;
    expect(total).toBeGreaterThan(230);
    const seen = [...first.rows];
    let page = first;
    while (page.offset + page.rows.length < page.total) {
      page = await auditOf(`${query}&after=${page.last}`);
      expect(page.offset).toBe(seen.length);
      seen.push(...page.rows);
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen.map((row) => row.id)).size).toBe(total);
    const order = seen.map((row) => [row.at, Number(row.id)] as const);
    expect(order).toEqual([...order].sort(([a, x], [b, y]) => (a === b ? y - x : a < b ? 1 : -1)));

    const last = await auditOf(`${query}&last=1`);
    const lastOffset = total - (total % 50 || 50);
    expect(last.offset).toBe(lastOffset);
    expect(last.rows.map((row) => row.id)).toEqual(seen.slice(lastOffset).map((row) => row.id));
    const before = await auditOf(`${query}&before=${last.first}`);
    expect(before.offset).toBe(lastOffset - 50);
    expect(before.rows.map((row) => row.id)).toEqual(
      seen.slice(lastOffset - 50, lastOffset).map((row) => row.id),
    );
    const hundred = await auditOf(`${query}&size=100`);
    expect(hundred.rows.map((row) => row.id)).toEqual(seen.slice(0, 100).map((row) => row.id));
  }, 180_000);

  it('filters combine: who, what, which applicant, and days in the institution’s time zone', async () => {
    await readerClient();
    const maria = ids['maria@example.com'];
    const grace = ids['grace@example.com'];
    expect((await reader.client.get(`/staff/api/applications/${grace}`)).status).toBe(200);
    expect((await reader.client.get(`/staff/api/applications/${maria}/links`)).status).toBe(200);
    await adminClient();
    expect((await admin.client.post(`/staff/api/applications/${maria}/links`, {})).status).toBe(
      200,
    );

    const ofMaria = await auditOf(`?applicant=${maria}`);
    expect(new Set(ofMaria.rows.map((row) => row.applicant_name))).toEqual(
      new Set(['Maria Gonzalez-Whitfield']),
    );
    expect(ofMaria.rows.map((row) => row.action)).toEqual(['link.minted', 'application.read']);
    const readerOfMaria = await auditOf(
      `?applicant=${maria}&who=${staffIds['reader@northfield.edu']}`,
    );
    expect(readerOfMaria.rows.map((row) => row.action)).toEqual(['application.read']);
    const reads = await auditOf('?what=application.read');
    expect(reads.total).toBe(2);
    expect(reads.rows.map((row) => row.applicant_id)).toEqual([grace, maria]);
    const readsOfGrace = await auditOf(`?what=application.read&applicant=${grace}`);
    expect(readsOfGrace.total).toBe(1);

    // Late on November 2nd in New York is November 3rd in UTC: the day is the institution's.
    const now = server.clock.now();
    expect(now.toISOString().slice(0, 10)).toBe('2026-11-02');
    server.clock.current = new Date('2026-11-03T03:30:00Z');
    await adminClient();
    expect((await admin.client.get(`/staff/api/applications/${grace}`)).status).toBe(200);
    const ofNovember2 = await auditOf(`?what=application.read&from=2026-11-02&to=2026-11-02`);
    expect(ofNovember2.total).toBe(3);
    const ofNovember3 = await auditOf(`?what=application.read&from=2026-11-03`);
    expect(ofNovember3.total).toBe(0);
    const untilNovember1 = await auditOf(`?to=2026-11-01`);
    expect(untilNovember1.total).toBe(0);
  });

  it(`search-as-you-type: one row per settled search; a burst of ${BURST} keystrokes leaves one row`, async () => {
    await readerClient();
    const before = (await searchesOf('reader@northfield.edu')).length;
    const typed = 'gonzalez whitfield';
    // The keystrokes of a fast typist, all at once.
    const burst = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        reader.client.get(
          `/staff/api/applications?q=${encodeURIComponent(typed.slice(0, (i % typed.length) + 1))}`,
        ),
      ),
    );
    for (const response of burst) expect(response.status).toBe(200);
    expect(await searchesOf('reader@northfield.edu')).toHaveLength(before + 1);
    // The pauses of a slow one, each within the fold of the one before.
    for (const q of ['m', 'ma', 'mar', 'maria']) {
      server.clock.advance(SEARCH_FOLD_MS - 1_000);
      expect((await reader.client.get(`/staff/api/applications?q=${q}`)).status).toBe(200);
    }
    const folded = await searchesOf('reader@northfield.edu');
    expect(folded).toHaveLength(before + 1);
    expect(folded[0]?.at).toBe(server.clock.now().toISOString());
    // Another staff member searching meanwhile has a row of their own.
    await adminClient();
    expect((await admin.client.get('/staff/api/applications?q=hopper')).status).toBe(200);
    expect(await searchesOf('dean@northfield.edu')).toHaveLength(1);

    // Opening the application found ends the search: the next one is a row of its own.
    await readerClient();
    const maria = ids['maria@example.com'];
    expect((await reader.client.get(`/staff/api/applications/${maria}`)).status).toBe(200);
    expect((await reader.client.get('/staff/api/applications?q=grace')).status).toBe(200);
    expect(await searchesOf('reader@northfield.edu')).toHaveLength(before + 2);
    // So does a pause longer than the fold.
    server.clock.advance(SEARCH_FOLD_MS + 1_000);
    expect((await reader.client.get('/staff/api/applications?q=hopper')).status).toBe(200);
    expect(await searchesOf('reader@northfield.edu')).toHaveLength(before + 3);
    // A listing without a search is a row each time, as before.
    const lists = (await auditOf(`?who=${staffIds['reader@northfield.edu']}&what=application.list`))
      .total;
    await reader.client.get('/staff/api/applications');
    await reader.client.get('/staff/api/applications');
    expect(
      (await auditOf(`?who=${staffIds['reader@northfield.edu']}&what=application.list`)).total,
    ).toBe(lists + 2);
  }, 120_000);

  it('admins only: a reader is refused with the role message', async () => {
    await readerClient();
    const refused = await reader.client.get('/staff/api/audit');
    expect(refused).toMatchObject({ status: 403, body: { message: staffMessages.forbidden } });
  });

  it('staff of another tenant see none of it, even by naming an applicant or staff member; the database keeps them apart too', async () => {
    await adminClient();
    const southAdmin = await enrolledStaff(server, 'dean@southfield.edu', 'admin', SOUTH_HOST);
    const south = await auditOf('', southAdmin.client);
    expect(south.rows.length).toBeGreaterThan(0);
    expect(
      south.rows.every((row) => row.actor === 'dean@southfield.edu' || row.actor === 'cli'),
    ).toBe(true);
    for (const query of [
      `?applicant=${ids['maria@example.com']}`,
      `?who=${staffIds['reader@northfield.edu']}`,
    ])
      expect(await auditOf(query, southAdmin.client)).toMatchObject({ total: 0, rows: [] });

    const db = server.built.database.db;
    const seenBy = (tenant: string) => runInTenant(tenant, () => db.select().from(staffAudit));
    const north = await seenBy('northfield');
    expect(north.length).toBeGreaterThan(230);
    // PGlite connects as a superuser, whom no policy holds (tests/security/rls.test.ts).
    if (database === 'postgres')
      expect((await seenBy('southfield')).every((row) => row.tenantId === 'southfield')).toBe(true);
  }, 60_000);
});
