/**
 * Institutions as data (D145): a second college added from its two files on a running server, each
 * host serving its own form and mails, files refused with each problem's path while the old version
 * keeps serving, parallel publishes numbered without gaps, and an applicant's answers kept across a
 * new version.
 */
import { readFileSync } from 'node:fs';
import { parse as parseCsv } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications } from '../../server/db/schema';
import { runInTenant } from '../../server/db/tenantScope';
import { copyHtml } from '../../server/applicationPdf';
import { readSources } from '../../server/applicationPdf/sources';
import { cliKey } from '../../server/serviceView/serviceTokens';
import { publishDefinition } from '../../server/tenants';
import { withoutSchemaLink } from '../../definitions/institutionFile';
import {
  databaseKinds,
  registeredClient,
  startServer,
  type Response,
  type TestServer,
} from './harness';
import { enrolledStaff } from './staffHelpers';

const RIVERSIDE = 'riverside.test';
const readTenantFile = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../tenants/${file}`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;
const riversideInstitution = readTenantFile('riverside/institution.json');
const riversideDefinition = readTenantFile('riverside/definition.json');
const northfieldDefinition = readTenantFile('northfield/definition.json');

describe.each(databaseKinds)('tenant administration on %s', (database) => {
  let server: TestServer;
  let operator: (
    method: string,
    path: string,
    body?: unknown,
  ) => Promise<Response<Record<string, any>>>;

  beforeAll(async () => {
    server = await startServer({ database, env: { TENANT_REFRESH_SECONDS: '0.2' } });
    const key = cliKey(server.built.context.config);
    const client = server.client();
    operator = (method, path, body) =>
      client.request(method, path, body, { authorization: `Bearer ${key}` });
    const added = await operator('POST', '/platform/api/tenants', {
      id: 'riverside',
      hosts: [RIVERSIDE],
      institution: riversideInstitution,
      definition: riversideDefinition,
    });
    expect(added.status, added.text).toBe(200);
    expect(added.body).toEqual({ version: 1 });
  });
  afterAll(async () => server?.close());

  it('refuses every call without the command line key, and a wrong key', async () => {
    const none = await server.client().get('/platform/api/tenants');
    expect(none.status).toBe(401);
    const wrong = await server
      .client()
      .request('GET', '/platform/api/tenants', undefined, { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    expect(JSON.stringify(wrong.body)).not.toContain('riverside');
  });

  it('serves each college its own form and mails on its own host', async () => {
    const email = 'both@example.com';
    const north = await registeredClient(server, email);
    const river = await registeredClient(server, email, undefined, RIVERSIDE);

    const riverMail = await server.mail(email, 'confirmation code');
    const mails = (await server.outbox()).filter((mail) => mail.to === email);
    expect(mails.some((mail) => mail.text.includes('Riverside Community College'))).toBe(true);
    expect(mails.some((mail) => mail.text.includes('Northfield College'))).toBe(true);
    expect(riverMail).toBeDefined();

    // A key of Riverside's form is refused by Northfield's, and the other way round.
    expect((await river.put('/api/answer', { program: 'NURS' })).status).toBe(200);
    expect((await north.put('/api/answer', { program: 'NURS' })).status).toBe(400);
    expect((await river.put('/api/answer', { gender: 'F' })).status).toBe(400);
    // An option outside Riverside's list is refused by its validation.
    expect((await river.put('/api/answer', { program: 'ASTRO' })).status).toBe(400);

    const listed = await operator('GET', '/platform/api/tenants');
    expect(listed.body.tenants.map((tenant: { id: string }) => tenant.id)).toEqual([
      'northfield',
      'riverside',
    ]);
  });

  it('refuses broken files with the path of each problem, and nothing changes', async () => {
    const config = riversideInstitution.config as Record<string, unknown>;
    const brokenInstitution = {
      ...riversideInstitution,
      config: { ...config, help_email: undefined, colors: { primary: 'red' } },
    };
    const brokenDefinition = { ...riversideDefinition, pages: [{ id: 'about' }] };
    const refused = await operator('POST', '/platform/api/tenants', {
      id: 'lakeside',
      hosts: ['lakeside.test'],
      institution: brokenInstitution,
      definition: brokenDefinition,
    });
    expect(refused.status).toBe(400);
    const problems = (refused.body.problems as string[]).join('\n');
    expect(problems).toContain('institution: config.help_email');
    expect(problems).toContain('institution: config.colors.primary');
    expect(problems).toContain('institution: config.colors.secondary');
    expect(problems).toMatch(/definition: .*pages\[0\]/);
    const listed = await operator('GET', '/platform/api/tenants');
    expect(listed.body.tenants.map((tenant: { id: string }) => tenant.id)).not.toContain(
      'lakeside',
    );

    const before = (await operator('GET', '/platform/api/tenants/riverside/export')).body;
    const badPublish = await operator('POST', '/platform/api/tenants/riverside/versions', {
      definition: brokenDefinition,
    });
    expect(badPublish.status).toBe(400);
    const after = (await operator('GET', '/platform/api/tenants/riverside/export')).body;
    expect(after.version).toBe(before.version);
    // The old version keeps serving: its keys are still saved.
    const river = await registeredClient(server, 'still@example.com', undefined, RIVERSIDE);
    expect((await river.put('/api/answer', { start_term: '2027FA' })).status).toBe(200);
  });

  it('refuses an institution file whose colours fall below WCAG AA, naming the pair and its ratio (D198)', async () => {
    const before = (await operator('GET', '/platform/api/tenants/riverside/export')).body;
    const config = riversideInstitution.config as { colors: Record<string, string> };
    const refused = await operator('PUT', '/platform/api/tenants/riverside/institution', {
      institution: {
        ...riversideInstitution,
        config: { ...config, colors: { ...config.colors, primary: '#4a90e2' } },
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.problems).toContain(
      'institution: config.colors.primary: `config.colors.primary` (#4a90e2) on white (#ffffff): contrast 3.2:1, below 4.5:1 (links, dialog and card titles, tabs and the secondary buttons; white on it in the primary buttons, the welcome banner and the current page)',
    );
    const after = (await operator('GET', '/platform/api/tenants/riverside/export')).body;
    expect(after.institution).toEqual(before.institution);
  });

  it('adds one tenant of a burst that names the same id, or the same host, and refuses the rest', async () => {
    const add = (id: string, host: string) =>
      operator('POST', '/platform/api/tenants', {
        id,
        hosts: [host],
        institution: riversideInstitution,
        definition: riversideDefinition,
      });
    const sameId = await Promise.all(
      Array.from({ length: 12 }, () => add('eastside', 'east.test')),
    );
    expect(sameId.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of sameId.filter((answer) => answer.status !== 200)) {
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.problems).toEqual(['id: a tenant "eastside" already exists']);
    }
    const sameHost = await Promise.all(
      Array.from({ length: 8 }, (_, i) => add(`westside${i}`, 'west.test')),
    );
    expect(sameHost.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of sameHost.filter((answer) => answer.status !== 200))
      expect(answer.body.problems[0]).toMatch(
        /^hosts: "west.test" already belongs to "westside\d"$/,
      );
    const listed = await operator('GET', '/platform/api/tenants');
    const added = (listed.body.tenants as { id: string; versions: unknown[] }[]).filter(
      (tenant) => tenant.id === 'eastside' || tenant.id.startsWith('westside'),
    );
    expect(added).toHaveLength(2);
    for (const tenant of added) expect(tenant.versions).toHaveLength(1);
  });

  it('answers hostile bodies with the key with a 4xx and its message, never a 500', async () => {
    const labelled = (label: string) => {
      const pages = riversideDefinition.pages as { title: string }[];
      return { ...riversideDefinition, pages: [{ ...pages[0], title: label }, ...pages.slice(1)] };
    };
    let deep: unknown = 'x';
    for (let i = 0; i < 200; i += 1) deep = [deep];
    const bodies: [string, string, unknown][] = [
      ['POST', '/platform/api/tenants', { id: 'nul\u0000', hosts: ['n.test'] }],
      ['POST', '/platform/api/tenants', { id: 'lone', hosts: ['\ud800.test'], institution: 1 }],
      ['POST', '/platform/api/tenants', { id: 42, hosts: 'x', institution: [], definition: null }],
      ['POST', '/platform/api/tenants/riverside/versions', { definition: labelled('A\u0000B') }],
      ['POST', '/platform/api/tenants/riverside/versions', { definition: labelled('\udc00') }],
      ['POST', '/platform/api/tenants/riverside/versions', { definition: deep }],
      ['POST', '/platform/api/tenants/riverside/versions', { definition: 'x'.repeat(3_000_000) }],
      ['PUT', '/platform/api/tenants/riverside/institution', { institution: { config: '\u0000' } }],
      ['PUT', '/platform/api/tenants/nul%00/institution', { institution: riversideInstitution }],
      ['GET', '/platform/api/tenants/%F0%9F%92%A5/export', undefined],
    ];
    const before = (await operator('GET', '/platform/api/tenants/riverside/export')).body.version;
    for (const [method, path, body] of bodies) {
      const answer = await operator(method, path, body);
      expect(
        answer.status,
        `${method} ${path}: ${answer.text.slice(0, 200)}`,
      ).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${method} ${path}`).toBeLessThan(500);
      expect(typeof answer.body.message).toBe('string');
    }
    const after = (await operator('GET', '/platform/api/tenants/riverside/export')).body.version;
    expect(after).toBe(before);
  });

  it('serves a version another process published, within its refresh interval', async () => {
    const river = await registeredClient(server, 'elsewhere@example.com', undefined, RIVERSIDE);
    expect((await river.put('/api/answer', { start_term: '2027FA' })).status).toBe(200);
    const directory = server.built.tenants;
    // Published straight on the database, as another server process would: this one is not told.
    const version = await publishDefinition(
      server.built.database.db,
      'riverside',
      withoutSchemaLink(withoutQuestion(riversideDefinition, 'start_term')),
      'command line',
    );
    await expect
      .poll(() => directory.get('riverside')?.definitionVersion, { timeout: 5000 })
      .toBe(version);
    expect((await river.put('/api/answer', { start_term: '2027SP' })).status).toBe(400);
    // Nothing changed since: a refresh reads the revisions and reloads nothing.
    expect(await directory.refresh(server.built.database.db)).toBe(false);
    await publishDefinition(
      server.built.database.db,
      'riverside',
      withoutSchemaLink(riversideDefinition),
      'command line',
    );
    expect(await directory.refresh(server.built.database.db)).toBe(true);
    expect((await river.put('/api/answer', { start_term: '2027SP' })).status).toBe(200);
  });

  it('numbers parallel publishes without gaps and never twice', async () => {
    const before = (await operator('GET', '/platform/api/tenants/northfield/export')).body
      .version as number;
    // Twelve different forms: an identical one would publish no version (D194).
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        operator('POST', '/platform/api/tenants/northfield/versions', {
          definition: { ...northfieldDefinition, title: `Northfield College Application ${i}` },
        }),
      ),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    const versions = answers.map((answer) => answer.body.version as number).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 12 }, (_, i) => before + 1 + i));
    const listed = await operator('GET', '/platform/api/tenants');
    const northfield = listed.body.tenants.find(
      (tenant: { id: string }) => tenant.id === 'northfield',
    );
    expect(northfield.versions.map((v: { version: number }) => v.version)).toEqual(
      Array.from({ length: before + 12 }, (_, i) => i + 1),
    );
  });

  it('keeps what an applicant entered when a new version drops the question, and records the version a submission was made under', async () => {
    const river = await registeredClient(server, 'midform@example.com', undefined, RIVERSIDE);
    expect(
      (
        await river.put('/api/answer', {
          first_name: 'Ada',
          last_name: 'Byron',
          part_time: 'Y',
          program: 'CSCI',
          start_term: '2027SP',
          legal_agree: true,
        })
      ).status,
    ).toBe(200);

    const withoutPartTime = withoutQuestion(riversideDefinition, 'part_time');
    // A key that holds saved answers is dropped only when the operator says so (D194).
    const refused = await operator('POST', '/platform/api/tenants/riverside/versions', {
      definition: withoutPartTime,
    });
    expect(refused.status).toBe(400);
    expect((refused.body.problems as string[]).join('\n')).toMatch(
      /definition: pages\[0\]\.children\[1\]\.children\[2\]: in version \d+, \d+ applications? holds? an answer under "part_time"/,
    );
    const published = await operator('POST', '/platform/api/tenants/riverside/versions', {
      definition: withoutPartTime,
      dropKeys: true,
    });
    expect(published.status, published.text).toBe(200);
    expect(published.body.dropped).toEqual([
      expect.stringContaining('an answer under "part_time"'),
      expect.stringContaining('an answer under "part_time_desc"'),
    ]);
    const version = published.body.version as number;
    expect(version).toBeGreaterThan(1);

    const profile = await river.get('/api/profile');
    expect(profile.status).toBe(200);
    expect(JSON.stringify(profile.body)).toContain('"part_time":"Y"');
    // The dropped question can no longer be answered; the others still can.
    expect((await river.put('/api/answer', { part_time: 'N' })).status).toBe(400);
    expect((await river.put('/api/answer', { preferred_name: 'Ada' })).status).toBe(200);

    const submitted = await river.post('/api/submit', {});
    expect(submitted.status, submitted.text).toBe(200);
    const rows = await runInTenant('riverside', () =>
      server.built.database.db
        .select({ version: applications.definitionVersion, answers: applications.answers })
        .from(applications)
        .where(and(eq(applications.tenantId, 'riverside'))),
    );
    const row = rows.find((candidate) => candidate.answers.first_name === 'Ada');
    expect(row?.version).toBe(version);
    expect(row?.answers.part_time).toBe('Y');
  });

  it('shows, exports and prints a submitted application under its version after a newer one drops a question', async () => {
    const full = await operator('POST', '/platform/api/tenants/riverside/versions', {
      definition: riversideDefinition,
    });
    expect(full.status, full.text).toBe(200);
    const submittedUnder = full.body.version as number;
    const email = 'versioned@example.com';
    const applicant = await registeredClient(server, email, undefined, RIVERSIDE);
    const answered = await applicant.put('/api/answer', {
      first_name: 'Grace',
      last_name: 'Hopper',
      part_time: 'N',
      program: 'CSCI',
      start_term: '2027SP',
      legal_agree: true,
    });
    expect(answered.status, answered.text).toBe(200);
    expect((await applicant.post('/api/submit', {})).status).toBe(200);
    const later = await operator('POST', '/platform/api/tenants/riverside/versions', {
      definition: withoutQuestion(riversideDefinition, 'part_time'),
      dropKeys: true,
    });
    expect(later.status, later.text).toBe(200);

    const admin = await enrolledStaff(server, 'registrar@riverside.test', 'admin', RIVERSIDE);
    const list = await admin.client.get(`/staff/api/applications?q=${encodeURIComponent(email)}`);
    const id = (list.body.rows as { id: string; email: string }[]).find(
      (row) => row.email === email,
    )?.id;
    expect(id).toBeDefined();

    // The staff view comes with the version it was submitted under, which still has the question.
    const read = await admin.client.get(`/staff/api/applications/${id}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.definition_version).toBe(submittedUnder);
    expect(JSON.stringify(read.body.definition)).toContain('Do you plan to study part time?');
    expect((read.body.answer as Record<string, unknown>).part_time).toBe('N');

    // The CSV keeps the column, though the latest version no longer asks it.
    const csv = await admin.client.get('/staff/api/export.csv');
    const [header, ...rows] = parseCsv(csv.text, { bom: true }) as string[][];
    const column = header!.indexOf('Do you plan to study part time?');
    expect(column).toBeGreaterThan(0);
    expect(rows.find((row) => row.includes(email))?.[column]).toBe('No');

    // The PDF is made from that version: its question is printed with the answer's label.
    const directory = server.built.tenants;
    const sources = await runInTenant('riverside', () =>
      readSources(
        server.built.documents,
        { tenantId: 'riverside', userId: id! },
        directory.get('riverside')!.definitionAt,
      ),
    );
    expect(sources.definition.version).toBe(submittedUnder);
    const html = copyHtml(sources.definition, sources, new Date());
    expect(html).toContain('Do you plan to study part time?');

    // Admins see the versions, newest first, and which one applicants get.
    const versions = await admin.client.get('/staff/api/versions');
    expect(versions.status).toBe(200);
    const [newest, previous] = versions.body.versions as Record<string, unknown>[];
    expect(newest).toMatchObject({ version: later.body.version, current: true });
    expect(newest?.published_by).toBe('command line');
    expect(previous).toMatchObject({ version: submittedUnder, current: false });
    // An applicant's session is no staff session.
    expect((await applicant.get('/staff/api/versions')).status).toBe(401);
  });
});

/** A definition file without the question of `key`. */
function withoutQuestion(definition: Record<string, unknown>, key: string) {
  const pages = definition.pages as { children: { children: { key?: string }[] }[] }[];
  return {
    ...definition,
    pages: pages.map((page) => ({
      ...page,
      children: page.children.map((section) => ({
        ...section,
        children: section.children.filter((question) => question.key !== key),
      })),
    })),
  };
}
