/**
 * Finding anyone in the console's list (D146): every word of every name wherever it stands, the
 * parts of an address, accents and case ignored both ways, the application reference with or
 * without its hyphen; ranked reference, whole words, prefixes, with pages found by seeking across
 * the ranks; one tenant never finds another's applicants; hostile searches are a 400 or nothing.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationPage, staffMessages, type ApplicationPage } from '../../contract/staff';
import { serverMessages } from '../../contract/messages';
import { runInTenant } from '../../server/db/tenantScope';
import { collegeDay, collegeTime } from '../../contract';
import { applicationReference, personalPdfFileName } from '../../server/applicationPdf';
import { databaseKinds, registeredClient, startServer, type TestServer } from './harness';
import { enrolledStaff, type SignedInStaff } from './staffHelpers';

describe.each(databaseKinds)('the staff search on %s', (database) => {
  let server: TestServer;
  let admin: SignedInStaff;
  let mariaId: string;
  const ids: Record<string, string> = {};

  /** Accounts and applications made in one statement each: `[email, answers]`. */
  async function applicants(tenant: string, made: [string, Record<string, string>][]) {
    for (const [email, answers] of made)
      await runInTenant(tenant, async () => {
        const result = (await server.built.database.db.execute(sql`with u as (
            insert into users (tenant_id, email, password_hash, confirmed_at, created_at)
            values (${tenant}, ${email}, 'not-a-hash', now(), now()) returning id)
          insert into applications (tenant_id, user_id, answers, updated_at)
          select ${tenant}, u.id, ${JSON.stringify(answers)}::jsonb, now() from u
          returning user_id`)) as unknown as { rows: { user_id: string }[] };
        ids[email] = result.rows[0]!.user_id;
      });
  }

  async function search(q: string, more = ''): Promise<ApplicationPage> {
    const response = await admin.client.get(
      `/staff/api/applications?q=${encodeURIComponent(q)}${more}`,
    );
    expect(response.status, q).toBe(200);
    return applicationPage.parse(response.body);
  }
  const emailsFound = async (q: string, more = '') =>
    (await search(q, more)).rows.map((row) => row.email);

  beforeAll(async () => {
    server = await startServer({ database });
    admin = await enrolledStaff(server, 'dean@northfield.edu', 'admin');
    // Maria as the product makes her: signed up, then her names saved.
    const maria = await registeredClient(server, 'maria.gw@example.com');
    const saved = await maria.put('/api/answer', {
      first_name: 'Maria',
      last_name: 'Gonzalez-Whitfield',
      preferred_name: 'Mari',
    });
    expect(saved.status).toBe(200);
    await applicants('northfield', [
      ['jose@example.com', { first_name: 'José', last_name: 'Núñez Ortega' }],
      ['zoe@example.com', { first_name: 'ZOË', last_name: "O'Brien", middle_name: 'Ann' }],
      ['lukasz@example.com', { first_name: 'Łukasz', last_name: 'Müller' }],
    ]);
    mariaId = (await search('maria.gw@example.com')).rows[0]!.id;
  }, 120_000);
  afterAll(async () => server?.close());

  it('finds Maria Gonzalez-Whitfield whatever is typed', async () => {
    for (const q of [
      'whitfield',
      'Maria Whitfield',
      'gonzalez whitfield',
      'González',
      'GONZ',
      'maria gonzalez',
      'Gonzalez-Whitfield',
      'whit maria',
      'Mari',
      'maria.gw',
      'gw@example',
      'maria.gw@example.com',
    ])
      expect(await emailsFound(q), q).toEqual(['maria.gw@example.com']);
    // Every word must be found: one that is not there finds nobody.
    expect(await emailsFound('maria smith')).toEqual([]);
    // A word is found at the start of a word, not inside one.
    expect(await emailsFound('hitfield')).toEqual([]);
  });

  it('the reference, with or without its hyphen, in any case', async () => {
    const reference = applicationReference(mariaId);
    for (const q of [
      reference,
      reference.replace('-', ''),
      reference.toLowerCase(),
      ` ${reference} `,
    ])
      expect(await emailsFound(q), q).toEqual(['maria.gw@example.com']);
    // Its start finds it too ("2AF0", "2AF0-8"), from the first half on; less is left to names.
    for (const q of [
      reference.slice(0, 4),
      reference.slice(0, 6),
      reference.slice(0, 7).toLowerCase(),
    ])
      expect(await emailsFound(q), q).toContain('maria.gw@example.com');
    expect(await emailsFound(reference.slice(0, 3))).not.toContain('maria.gw@example.com');
    // Each row of the list says its reference.
    const [row] = (await search('maria.gw@example.com')).rows;
    expect(row?.reference).toBe(reference);
  });

  it('ignores accents and case both ways', async () => {
    expect(await emailsFound('jose nunez')).toEqual(['jose@example.com']);
    expect(await emailsFound('JOSÉ NÚÑEZ')).toEqual(['jose@example.com']);
    expect(await emailsFound('ortega')).toEqual(['jose@example.com']);
    expect(await emailsFound('zoe obrien')).toEqual([]);
    expect(await emailsFound('zoë o brien')).toEqual(['zoe@example.com']);
    expect(await emailsFound("Zoe O'Brien")).toEqual(['zoe@example.com']);
    expect(await emailsFound('ann')).toEqual(['zoe@example.com']);
    expect(await emailsFound('lukasz muller')).toEqual(['lukasz@example.com']);
    expect(await emailsFound('ŁUKASZ MÜLLER')).toEqual(['lukasz@example.com']);
  });

  it('ranks the reference, then whole words, then prefixes, and pages across the ranks', async () => {
    const hex = applicationReference(mariaId).replace('-', '').toLowerCase();
    // A whole word equal to Maria's reference, and words that only start with it.
    await applicants('northfield', [
      ['whole@example.com', { first_name: 'Rank', last_name: hex }],
      ...Array.from({ length: 30 }, (_, i): [string, Record<string, string>] => [
        `prefix${i}@example.com`,
        { first_name: 'Rank', last_name: `${hex}x${i}` },
      ]),
    ]);
    // Whatever the sort, the ranks come first.
    for (const sort of ['&sort=name&dir=asc', '&sort=updated&dir=desc', '&sort=email&dir=desc']) {
      const first = await search(hex, sort);
      expect(first.total).toBe(32);
      expect(first.rows.slice(0, 2).map((row) => row.email)).toEqual([
        'maria.gw@example.com',
        'whole@example.com',
      ]);
    }
    // A name typed in full comes before names it only starts, in either direction of a sort.
    await applicants('northfield', [
      ['annabel@example.com', { first_name: 'Annabel', last_name: 'Annan' }],
    ]);
    for (const dir of ['asc', 'desc'])
      expect(await emailsFound('ann', `&sort=email&dir=${dir}`)).toEqual([
        'zoe@example.com',
        'annabel@example.com',
      ]);
    expect(await emailsFound('Annabel Annan')).toEqual(['annabel@example.com']);
    // Pages by seeking, forwards and back, over the ranks: the same rows as one long page.
    const order = '&sort=email&dir=asc';
    const all = await search(hex, `&size=100${order}`);
    const page1 = await search(hex, `&size=25${order}`);
    const page2 = await search(hex, `&size=25${order}&after=${page1.last}`);
    expect(page2.offset).toBe(25);
    expect([...page1.rows, ...page2.rows].map((row) => row.id)).toEqual(
      all.rows.map((row) => row.id),
    );
    const back = await search(hex, `&size=25${order}&before=${page2.first}`);
    expect(back.rows.map((row) => row.id)).toEqual(page1.rows.map((row) => row.id));
    const last = await search(hex, `&size=25${order}&last=1`);
    expect(last.rows.map((row) => row.id)).toEqual(page2.rows.map((row) => row.id));
    // A cursor of the unranked list is no cursor of a search, and back.
    const unranked = await admin.client.get(`/staff/api/applications?after=${page1.last}`);
    expect(unranked.status).toBe(400);
  });

  it("a one-letter search is not ranked: the rows it finds in the list's own order (D199)", async () => {
    await applicants('northfield', [
      ['zulu@example.com', { first_name: 'Sam', middle_name: 'J', last_name: 'Zulu' }],
      ['jay.abbot@example.com', { first_name: 'Jay', last_name: 'Abbot' }],
    ]);
    const found = await emailsFound('j', '&sort=name&dir=asc');
    // Sam J Zulu's whole word "j" does not put him first: the names' order does.
    expect(found.indexOf('jay.abbot@example.com')).toBeLessThan(found.indexOf('zulu@example.com'));
    expect(found.at(-1)).toBe('zulu@example.com');
    // Two letters rank again: a whole word before the words it only starts.
    expect(await emailsFound('ja', '&sort=name&dir=asc')).toEqual(['jay.abbot@example.com']);
  });

  it('one tenant never finds the applicants of another', async () => {
    // Another tenant of the same database (its row only: nothing here serves it).
    await server.built.database.db.execute(
      sql`insert into tenants (id, name, definition_id) values ('riverside', 'Riverside', 'northfield-undergraduate') on conflict do nothing`,
    );
    await applicants('riverside', [
      ['maria.gw@river.example', { first_name: 'Maria', last_name: 'Gonzalez-Whitfield' }],
    ]);
    expect(await emailsFound('gonzalez whitfield')).toEqual(['maria.gw@example.com']);
    const theirs = applicationReference(ids['maria.gw@river.example']!);
    expect(await emailsFound(theirs)).toEqual([]);
  });

  it('hostile searches are a 400 with our message, or find nothing; never a 500', async () => {
    const refused = ['\u0000', 'a\u0000b', 'x'.repeat(10_000), '\u0007'];
    for (const q of refused) {
      const response = await admin.client.get(`/staff/api/applications?q=${encodeURIComponent(q)}`);
      expect(response.status, JSON.stringify(q.slice(0, 10))).toBe(400);
      // Control characters are refused before any route (server/app.ts), the rest by the contract.
      expect([staffMessages.badFilter, serverMessages.badRequest]).toContain(response.body.message);
    }
    // A lone surrogate cannot be sent as UTF-8: its bytes arrive as replacement characters.
    const surrogate = await admin.client.get('/staff/api/applications?q=%ED%A0%80');
    expect(surrogate.status).toBe(200);
    expect(surrogate.body.total).toBe(0);
    for (const q of [
      '%',
      '_',
      "'; drop table users; --",
      '"\\{}',
      '\u{10FFFF}',
      '\uFFFF',
      '——',
      '.',
      '@',
    ])
      expect(
        (await search(q)).rows.map((row) => row.email),
        q,
      ).not.toContain(undefined);
    expect(await emailsFound("'; drop table users; --")).toEqual([]);
  });

  it('a burst of parallel searches while names change finds each applicant once', async () => {
    await applicants('northfield', [
      ['burst@example.com', { first_name: 'Burst', last_name: 'Before' }],
    ]);
    const renames = Array.from({ length: 6 }, (_, i) =>
      runInTenant('northfield', () =>
        server.built.database.db.execute(sql`update applications
          set answers = answers || ${JSON.stringify({ preferred_name: `Quick${i}` })}::jsonb
          where user_id = ${ids['burst@example.com']!}`),
      ),
    );
    const searches = Array.from({ length: 6 }, () => emailsFound('burst before'));
    const [, found] = await Promise.all([Promise.all(renames), Promise.all(searches)]);
    for (const emails of found) expect(emails).toEqual(['burst@example.com']);
    expect(await emailsFound('quick')).toEqual(['burst@example.com']);
  });

  it("filters and files by the college's days and times, not UTC's", async () => {
    // 03:30 UTC on 3 November is 22:30 on 2 November in New York, the college's time zone.
    await applicants('northfield', [
      ['late@example.com', { first_name: 'Late', last_name: 'Owl' }],
    ]);
    await runInTenant('northfield', () =>
      server.built.database.db.execute(
        sql`update applications set submitted_at = '2026-11-03T03:30:00Z'
          where user_id = ${ids['late@example.com']!}`,
      ),
    );
    const zone = server.built.context.institutionOf('northfield').time_zone;
    expect(zone).toBe('America/New_York');
    expect(await emailsFound('owl', '&from=2026-11-02&to=2026-11-02')).toEqual([
      'late@example.com',
    ]);
    expect(await emailsFound('owl', '&from=2026-11-03')).toEqual([]);
    expect(await emailsFound('owl', '&to=2026-11-01')).toEqual([]);

    const csv = await admin.client.get(`/staff/api/export.csv?q=owl`);
    expect(csv.status).toBe(200);
    const [headers, cells] = parseCsv(csv.text, { bom: true }) as [string[], string[]];
    // Each time in UTC for machines, and beside it as people read it, in the college's zone,
    // named (D197).
    const submitted = headers.indexOf(`Submitted (${zone})`);
    expect(submitted).toBeGreaterThan(0);
    expect(headers[submitted - 1]).toBe('Submitted (ISO 8601, UTC)');
    expect(cells[submitted - 1]).toBe('2026-11-03T03:30:00.000Z');
    expect(cells[submitted]).toBe('November 2, 2026, 10:30 PM EST');
    const changed = headers.indexOf(`Last change (${zone})`);
    expect(headers[changed - 1]).toBe('Last change (ISO 8601, UTC)');
    expect(cells[changed]).toBe(collegeTime(cells[changed - 1]!, zone));
  });

  it('the view says whose and what the application is; files are named for people', async () => {
    const view = await admin.client.get(`/staff/api/applications/${mariaId}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      email: 'maria.gw@example.com',
      name: 'Maria Gonzalez-Whitfield',
      preferred_name: 'Mari',
      status: 'started',
      submitted_at: null,
      reference: applicationReference(mariaId),
    });
    expect(
      personalPdfFileName({ last: 'González-Whitfield', first: 'María', reference: 'D9EE-83E7' }),
    ).toBe('Gonzalez-Whitfield-Maria-D9EE-83E7.pdf');
    expect(personalPdfFileName({ last: '', first: undefined, reference: 'D9EE-83E7' })).toBe(
      'D9EE-83E7.pdf',
    );
    const day = collegeDay(server.clock.now(), 'America/New_York');
    const csv = await admin.client.get(
      `/staff/api/export.csv?status=submitted&q=${encodeURIComponent('González')}`,
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toContain(
      `filename="applications-northfield-submitted-search-gonzalez-${day}.csv"`,
    );
    const all = await admin.client.get('/staff/api/export.csv');
    expect(all.headers.get('content-disposition')).toContain(
      `filename="applications-northfield-all-${day}.csv"`,
    );
  });
});
