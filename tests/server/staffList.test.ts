/**
 * The console's applications (D105): search, filters, sort and pages on 50,000 generated
 * applications on PostgreSQL and 10,000 on PGlite (made by SQL statements of 1,000; the query
 * times are reported, not asserted), the application view with its document and PDF, service links
 * minted, listed and revoked, the CSV export parsed back (a column per answer, formulas
 * neutralised), and the audit of each.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationPage, applicationQuery } from '../../contract/staff';
import { runInTenant } from '../../server/db/tenantScope';
import {
  countStatement,
  filterOf,
  pageStatement,
  sourceOf,
} from '../../server/staff/applicationList';
import { searchOf } from '../../server/staff/listSearch';
import { answerColumns } from '../../server/staff/exportCsv';
import { png } from './documentFiles';
import {
  databaseKinds,
  registeredClient,
  startServer,
  type Client,
  type TestServer,
} from './harness';
import { enrolledStaff, signIn, type SignedInStaff } from './staffHelpers';

/**
 * The season's scale on PostgreSQL, where the plans are asserted (every page an index range). PGlite
 * runs the same checks on a fifth of it: its plans are not asserted, its load is twice as slow, and
 * `npm run bench` times its queries at 50,000 (tests/bench/staffListing.bench.ts, D203).
 */
const GENERATED_ON = { postgres: 50_000, pglite: 10_000 } as const;
const BATCH = 1_000;
const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Edsger',
  'Barbara',
  'Donald',
  'Frances',
  'John',
  'Radia',
  'Ken',
];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Allen',
  'Backus',
  'Perlman',
  'Thompson',
];

describe.each(databaseKinds)('the staff applications list on %s', (database) => {
  let server: TestServer;
  let admin: SignedInStaff;
  let reader: SignedInStaff;
  let applicant: Client;
  let applicantId: string;

  const adminClient = async () => signIn(server, 'dean@northfield.edu', admin.secret);

  beforeAll(async () => {
    server = await startServer({ database });
    admin = await enrolledStaff(server, 'dean@northfield.edu', 'admin');
    reader = await enrolledStaff(server, 'reader@northfield.edu', 'reader');
    applicant = await registeredClient(server, 'mallory@example.com');
    await applicant.put('/api/answer', {
      first_name: '=HYPERLINK("http://evil.test","x")',
      last_name: '+Zed',
      middle_name: '-1',
      city: '@SUM(A1)',
      address_line_1: '\tTabbed',
      preferred_name: '\rReturn',
    });
    const profile = await applicant.get('/api/profile');
    expect(profile.status).toBe(200);
  }, 120_000);
  afterAll(async () => server?.close());

  const GENERATED = GENERATED_ON[database];
  /** An account number whose ten longer extensions (its number and a digit) are the last ones. */
  const probe = String(GENERATED / 10 - 1);

  it(`searches, filters, sorts and pages ${GENERATED.toLocaleString('en-US')} applications`, async () => {
    const db = server.built.database.db;
    const started = performance.now();
    // The accounts and their applications, 1,000 a statement (each within the query timeout with
    // the list's triggers); every 3rd submitted, every 5th validating.
    for (let from = 1; from <= GENERATED; from += BATCH)
      await runInTenant('northfield', () =>
        db.execute(sql`with made as (
        insert into users (tenant_id, email, password_hash, confirmed_at, created_at)
        select 'northfield', 'gen' || n || '@example.org', 'not-a-hash', now(), now()
        from generate_series(${from}::int, ${Math.min(from + BATCH - 1, GENERATED)}::int) n returning id, email),
      numbered as (select id, substr(split_part(email, '@', 1), 4)::int as n from made),
      apps as (insert into applications (tenant_id, user_id, answers, submitted_at, updated_at)
        select 'northfield', id,
          jsonb_build_object('first_name', (string_to_array(${FIRST.join(',')}, ','))[1 + n % 10], 'last_name', (string_to_array(${LAST.join(',')}, ','))[1 + (n / 10) % 10] || n),
          case when n % 3 = 0 then timestamptz '2026-01-01 12:00Z' + (n % 300) * interval '1 day' end,
          timestamptz '2026-01-01' + n * interval '1 minute'
        from numbered returning user_id)
      insert into web_status_events (tenant_id, user_id, web_status, at)
        select 'northfield', n.id, 'validating', now() from numbered n where n.n % 5 = 0`),
      );
    const generatedMs = performance.now() - started;
    // What autovacuum does soon after such a load: the planner's statistics of the new rows and,
    // on PostgreSQL, the visibility map that lets a count read the index alone.
    for (const table of ['staff_listing', 'staff_listing_words'])
      await runInTenant('northfield', () =>
        db.execute(
          database === 'postgres'
            ? sql`vacuum analyze ${sql.identifier(table)}`
            : sql`analyze ${sql.identifier(table)}`,
        ),
      );
    // PGlite ran in this process for the whole load: let the server close the keep-alive connections
    // that idled out meanwhile before the next request, rather than race a request on one of them.
    await new Promise((resolve) => setTimeout(resolve, 500));
    admin = { ...admin, client: await adminClient() };
    const timed: Record<string, number> = {};
    const planned: Record<string, string> = {};
    /** The database's own time for a statement (EXPLAIN ANALYZE) and the plan's scans of the list. */
    async function explain(statement: SQL) {
      const result = (await runInTenant('northfield', () =>
        db.execute(sql`explain (analyze, format json) ${statement}`),
      )) as unknown as { rows: { 'QUERY PLAN': unknown }[] };
      const raw = result.rows[0]?.['QUERY PLAN'];
      const [plan] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [
        { 'Execution Time': number; Plan: unknown },
      ];
      return { ms: plan['Execution Time'], text: JSON.stringify(plan.Plan) };
    }
    async function list(label: string, query: string) {
      const before = performance.now();
      const response = await admin.client.get(`/staff/api/applications?${query}`);
      timed[label] = Math.round(performance.now() - before);
      expect(response.status, query).toBe(200);
      const parsed = applicationQuery.parse(Object.fromEntries(new URLSearchParams(query)));
      const page = applicationPage.parse(response.body);
      const search = await searchOf(db, parsed.q);
      const rows = await explain(
        pageStatement(
          'northfield',
          parsed,
          page.size,
          search,
          server.built.context.institutionOf('northfield').time_zone,
        ).statement,
      );
      const count = await explain(
        countStatement(
          filterOf(
            'northfield',
            parsed,
            search,
            server.built.context.institutionOf('northfield').time_zone,
          ),
          sourceOf('northfield', search),
        ),
      );
      planned[label] = `${rows.ms.toFixed(1)} + ${count.ms.toFixed(1)} ms`;
      // On PostgreSQL every page is an index range (D107, D108), and a one-word search of three or
      // more characters reads the words' index, for the page and its count (D126): never a scan.
      // Several words, one of them broad, may still scan (reported); broad counts too (benched).
      const words = search?.words ?? [];
      const scans = [
        ...`${rows.text}${count.text}`.matchAll(/"Seq Scan"[^}]*?"Relation Name":"(\w+)"/g),
      ];
      if (scans.length > 0)
        planned[label] += ` (seq scan of ${[...new Set(scans.map((m) => m[1]))].join(', ')})`;
      const indexedSearch = words.length === 1 && words[0]!.length >= 3;
      if (database === 'postgres' && (words.length === 0 || indexedSearch))
        expect(rows.text, `${label}: rows`).not.toMatch(/"Seq Scan"/);
      if (database === 'postgres' && indexedSearch)
        expect(count.text, `${label}: count`).not.toMatch(/"Seq Scan"/);
      return page;
    }

    const first = await list('first page (last change)', 'size=25');
    expect(first.total).toBe(GENERATED + 1 + 0);
    expect(first.rows).toHaveLength(25);
    const second = await list('page 2', `size=25&after=${first.last}`);
    expect(second.offset).toBe(25);
    expect(second.rows[0]?.id).not.toBe(first.rows.at(-1)?.id);
    expect(second.rows[0]!.updated_at <= first.rows.at(-1)!.updated_at).toBe(true);
    const back = await list('page 1 again', `size=25&before=${second.first}`);
    expect(back.rows.map((row) => row.id)).toEqual(first.rows.map((row) => row.id));
    expect(back.offset).toBe(0);

    const byLast = await list('search by last name', 'q=dijkstra12');
    // "Dijkstra12…": n with (n / 10) % 10 = 3 and n starting with 12.
    expect(byLast.total).toBeGreaterThan(0);
    for (const row of byLast.rows) expect(row.name.toLowerCase()).toContain('dijkstra12');
    const byEmail = await list('search by e-mail', `q=gen${probe}`);
    expect(byEmail.rows.map((row) => row.email).sort()).toEqual(
      [
        `gen${probe}@example.org`,
        ...Array.from({ length: 10 }, (_, i) => `gen${probe}${i}@example.org`),
      ].sort(),
    );
    const twoWords = await list('search by first and last name', 'q=grace%20hopper1');
    for (const row of twoWords.rows) expect(row.name).toMatch(/^Grace Hopper1/);
    // A word must start a word of the name or address, as typed: not its middle.
    expect((await list('a word inside a name', 'q=ijkstra12')).total).toBe(0);
    // LIKE's characters are word breaks like any punctuation (D146), never wildcards.
    expect((await list('LIKE characters', `q=gen${probe}%25`)).total).toBe(byEmail.total);
    expect(
      (await list('a wildcard inside a word', `q=gen${probe.slice(0, 2)}%25${probe.slice(2)}`))
        .total,
    ).toBe(0);
    const startsWithD = Array.from({ length: GENERATED }, (_, i) => i + 1).filter(
      (n) => FIRST[n % 10]!.startsWith('D') || LAST[Math.floor(n / 10) % 10]!.startsWith('D'),
    ).length;
    expect((await list('one letter', 'q=d&size=100')).total).toBe(startsWithD);

    const submitted = await list('status submitted', 'status=submitted&size=100');
    expect(submitted.total).toBe(Math.floor(GENERATED / 3));
    const validating = await list('status validating', 'status=validating');
    expect(validating.total).toBe(Math.floor(GENERATED / 5) - Math.floor(GENERATED / 15));
    const started2 = await list('status started', 'status=started');
    expect(started2.total + validating.total + submitted.total).toBe(GENERATED + 1);

    const ranged = await list(
      'submitted in January',
      'from=2026-01-01&to=2026-01-31&sort=submitted&dir=asc',
    );
    // Submissions at noon UTC: the same day in the institution's time zone (New York).
    expect(ranged.total).toBeGreaterThan(0);
    for (const row of ranged.rows) expect(row.submitted_at?.slice(0, 7)).toBe('2026-01');
    expect(ranged.rows[0]?.submitted_at?.slice(0, 10)).toBe('2026-01-01');

    const byName = await list('sort by name', 'sort=name&dir=asc&size=100');
    const lastNames = byName.rows.map((row) => row.name.split(' ').at(-1)?.toLowerCase() ?? '');
    expect(lastNames).toEqual([...lastNames].sort());
    const lastPage = await list('last page', 'size=100&last=1');
    expect(lastPage.rows.length).toBe((GENERATED + 1) % 100 || 100);
    expect(lastPage.offset + lastPage.rows.length).toBe(GENERATED + 1);
    const beforeLast = await list('page before the last', `size=100&before=${lastPage.first}`);
    expect(beforeLast.offset).toBe(lastPage.offset - 100);
    expect(beforeLast.rows.at(-1)!.updated_at >= lastPage.rows[0]!.updated_at).toBe(true);
    const nameDeep = await list(
      'sort by name, page after a cursor',
      `sort=name&dir=asc&size=100&after=${byName.last}`,
    );
    expect(nameDeep.offset).toBe(100);
    const submittedLast = await list(
      'sort by submitted, last page',
      'sort=submitted&dir=desc&last=1',
    );
    expect(submittedLast.rows.every((row) => row.submitted_at === null)).toBe(true);
    const documentsSort = await list('sort by documents', 'sort=documents&dir=desc');
    expect(documentsSort.rows).toHaveLength(25);
    const statusSort = await list('sort by status', 'sort=status&dir=asc');
    expect(statusSort.rows[0]?.status).toBe('started');
    const emailSort = await list('sort by e-mail', 'sort=email&dir=asc');
    expect(emailSort.rows).toHaveLength(25);

    console.info(
      `[staff list ${database}] ${GENERATED} applications generated in ${Math.round(generatedMs)} ms\n` +
        Object.entries(timed)
          .map(
            ([label, ms]) =>
              `  ${label}: ${ms} ms over HTTP; in the database ${planned[label]} (page + count)`,
          )
          .join('\n'),
    );
  }, 300_000);

  it('the export: a column per answer, headed by its label, formulas neutralised; admins only, audited', async () => {
    admin = { ...admin, client: await adminClient() };
    const response = await admin.client.get('/staff/api/export.csv?q=mallory');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    // A byte-order mark, so a spreadsheet reads the UTF-8 as such.
    expect(response.text.startsWith('\ufeff')).toBe(true);
    const rows = parseCsv(response.text, { bom: true }) as string[][];
    const [header, row] = rows as [string[], string[]];
    expect(rows).toHaveLength(2);
    const definition = server.built.tenants.get('northfield')!.definition;
    const columns = answerColumns(definition);
    expect(header).toContain('Preferred Name');
    // Alike labels (the applicant's and a parent's last name) are told apart as people read them.
    expect(header).toContain('Last Name');
    expect(header).toContain('Parent or Legal Guardian 1 – Last Name');
    // One column per answer: no `_desc` column beside a coded answer, and every header unique.
    expect(header.some((name) => name.includes('_desc'))).toBe(false);
    expect(new Set(header).size).toBe(header.length);
    // A second parent nobody added: its columns stay, so every export has one layout (D199).
    const secondParent = columns.filter((column) => column.key.startsWith('parent_2_'));
    expect(secondParent.length).toBeGreaterThan(0);
    expect(secondParent.filter((column) => !header.includes(column.header))).toEqual([]);
    const cell = (key: string) =>
      row[header.indexOf(columns.find((column) => column.key === key)?.header ?? '')];
    expect(cell('first_name')).toBe(`'=HYPERLINK("http://evil.test","x")`);
    expect(cell('last_name')).toBe("'+Zed");
    expect(cell('middle_name')).toBe("'-1");
    expect(cell('city')).toBe("'@SUM(A1)");
    expect(cell('address_line_1')).toBe("'\tTabbed");
    expect(cell('preferred_name')).toBe("'\rReturn");
    // The name cell joins the three parts, neutralised as a whole.
    expect(row[2]).toBe(`'=HYPERLINK("http://evil.test","x") -1 +Zed`);
    expect(row[3]).toBe('mallory@example.com');
    applicantId = row[0] as string;

    // For systems that import it: every key as stored, codes beside their labels, keys in headers.
    const coded = await admin.client.get('/staff/api/export.csv?q=mallory&codes=1');
    const [codedHeader] = parseCsv(coded.text, { bom: true }) as string[][];
    expect(codedHeader).toContain('Last Name [last_name]');
    expect(codedHeader!.some((name) => name.endsWith('_desc]'))).toBe(true);
    expect(codedHeader!.some((name) => name.includes('[parent_2_'))).toBe(true);
    expect((await admin.client.get('/staff/api/export.csv?codes=yes')).status).toBe(400);

    reader = { ...reader, client: await signIn(server, 'reader@northfield.edu', reader.secret) };
    expect((await reader.client.get('/staff/api/export.csv')).status).toBe(403);
    expect(
      (await reader.client.get('/staff/api/applications?q=mallory&status=started')).status,
    ).toBe(200);
    const audit = await admin.client.get('/staff/api/audit');
    // A listing is a read: audited with who and what was filtered, never the words searched.
    expect(audit.body.rows).toContainEqual(
      expect.objectContaining({
        actor: 'reader@northfield.edu',
        action: 'application.list',
        detail: 'search: yes; status: started; sort: updated desc',
      }),
    );
    expect(JSON.stringify(audit.body.rows)).not.toContain('mallory');
    expect(audit.body.rows).toContainEqual(
      expect.objectContaining({
        actor: 'dean@northfield.edu',
        action: 'application.export',
        // What was filtered, never the words (they can be a name, D109).
        detail: 'search: yes; sort: updated desc',
      }),
    );
  });

  it('a reader opens the view, the document and the PDF; each read is audited', async () => {
    const presigned = await applicant.post('/api/presigned-url', { answer_key: 'transcript_file' });
    expect(presigned.status).toBe(200);
    const form = new FormData();
    for (const [name, value] of Object.entries(presigned.body.fields as Record<string, string>))
      form.append(name, value);
    form.append('file', new Blob([new Uint8Array(png())], { type: 'image/png' }), 'scan.png');
    const uploaded = await fetch(new URL(presigned.body.url as string, server.url), {
      method: 'POST',
      body: form,
    });
    expect(uploaded.status).toBe(204);
    const queued = await applicant.post('/api/pdf/document-answer/transcript_file', {
      file_key: presigned.body.fields.key,
      file_name: 'scan.png',
    });
    expect(queued.status).toBe(202);

    reader = { ...reader, client: await signIn(server, 'reader@northfield.edu', reader.secret) };
    const view = await reader.client.get(`/staff/api/applications/${applicantId}`);
    expect(view.status).toBe(200);
    expect(view.body.answer.last_name).toBe('+Zed');
    expect(view.body.email).toBe('mallory@example.com');

    let document = await reader.client.get(
      `/staff/api/applications/${applicantId}/documents/transcript_file`,
    );
    for (let i = 0; i < 100 && document.status === 404; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      document = await reader.client.get(
        `/staff/api/applications/${applicantId}/documents/transcript_file`,
      );
    }
    expect(document.status).toBe(200);
    expect(document.headers.get('content-type')).toBe('application/pdf');
    expect(document.bytes.subarray(0, 5).toString()).toBe('%PDF-');

    let pdf = await reader.client.get(`/staff/api/applications/${applicantId}/pdf`);
    for (let i = 0; i < 300 && pdf.status === 202; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      pdf = await reader.client.get(`/staff/api/applications/${applicantId}/pdf`);
    }
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');

    admin = { ...admin, client: await adminClient() };
    const audit = await admin.client.get('/staff/api/audit');
    const actions = (audit.body.rows as { actor: string; action: string; applicant_id: string }[])
      .filter(
        (entry) => entry.actor === 'reader@northfield.edu' && entry.applicant_id === applicantId,
      )
      .map((entry) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining(['application.read', 'application.document', 'application.pdf']),
    );
  }, 120_000);

  it('service links: a reader mints, everyone lists, an admin revokes, and the link stops opening', async () => {
    const minted = await reader.client.post(`/staff/api/applications/${applicantId}/links`, {});
    expect(minted.status).toBe(200);
    const token = new URL(minted.body.url as string).searchParams.get('service_token') as string;
    expect(
      (await server.client().get(`/service/tmp-pdf?service_token=${encodeURIComponent(token)}`))
        .status,
    ).toBe(200);
    const listed = await reader.client.get(`/staff/api/applications/${applicantId}/links`);
    expect(listed.body.links).toEqual([
      expect.objectContaining({
        id: minted.body.id,
        revoked_at: null,
        created_by: 'reader@northfield.edu',
      }),
    ]);
    expect(
      (
        await reader.client.request(
          'DELETE',
          `/staff/api/applications/${applicantId}/links/${minted.body.id}`,
        )
      ).status,
    ).toBe(403);
    const revoked = await admin.client.request(
      'DELETE',
      `/staff/api/applications/${applicantId}/links/${minted.body.id}`,
    );
    expect(revoked.status).toBe(200);
    expect(
      (await server.client().get(`/service/tmp-pdf?service_token=${encodeURIComponent(token)}`))
        .status,
    ).toBe(401);
    const after = await admin.client.get(`/staff/api/applications/${applicantId}/links`);
    expect(after.body.links[0].revoked_at).not.toBeNull();
  });
});
