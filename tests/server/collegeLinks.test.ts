/**
 * Every college's mail links lead to that college (D196): the links in a second college's mails
 * (the applicant's reset link, the staff invitation and reset links, the receipt) and its service
 * links are built from its own host, with PUBLIC_ORIGIN's scheme and port, and each works there; the
 * default college keeps PUBLIC_ORIGIN. The receipt gives the reference, the time in the college's
 * zone, its completion steps and a link to its own host, in the text and the (escaped) HTML part.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collegeTime, serverMessages, submissionText } from '../../contract';
import { staffPasswordMessages } from '../../contract/staffPassword';
import type { InstitutionFile } from '../../definitions/institutionFile';
import { seedInstitutionFile } from '../../definitions/seed';
import { requestServiceLink } from '../../server/cli/serviceToken';
import { addStaff } from '../../server/cli/staff';
import { configFromEnv } from '../../server/config';
import { openDatabase } from '../../server/db/client';
import { users } from '../../server/db/schema';
import { runInTenant } from '../../server/db/tenantScope';
import { exampleTenants } from '../../server/exampleTenants';
import { tenantOrigin } from '../../server/tenantOrigin';
import { DEFAULT_TENANT_SEED, ensureTenant } from '../../server/tenants';
import { validApplication } from '../definitions/fixtures';
import {
  PASSWORD,
  registeredClient,
  startServer,
  type OutboxMessage,
  type TestServer,
} from './harness';
import { enrolledStaff } from './staffHelpers';

const ORIGIN = 'http://app.test:8080';
const RIVER_HOST = 'riverside.localhost';
const STAFF_KEYS = {
  northfield: 'north-staff-key-0123456789abcdef0123456789',
  riverside: 'river-staff-key-0123456789abcdef0123456789',
};
const riverside = exampleTenants().tenants[0];
if (!riverside?.institution) throw new Error('tenants/riverside is missing');

interface College {
  readonly id: keyof typeof STAFF_KEYS;
  /** The Host header its pages are asked with (undefined: the default college's). */
  readonly host: string | undefined;
  /** Where its links must lead. */
  readonly origin: string;
  readonly institution: InstitutionFile;
  /** A complete application of its form. */
  readonly answers: Readonly<Record<string, unknown>>;
}

const COLLEGES: College[] = [
  {
    id: 'riverside',
    host: RIVER_HOST,
    origin: 'http://riverside.localhost:8080',
    institution: riverside.institution,
    answers: {
      first_name: 'Ada',
      last_name: 'Byron',
      program: 'CSCI',
      start_term: '2027SP',
      legal_agree: true,
    },
  },
  {
    id: 'northfield',
    host: undefined,
    origin: ORIGIN,
    institution: seedInstitutionFile,
    answers: validApplication,
  },
];

/** Every http(s) address in a mail's text. */
const linksIn = (mail: OutboxMessage) =>
  [...mail.text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((match) => new URL(match[0]));

/** The one link of a mail to the platform (not to a page of the college's own site). */
function platformLink(mail: OutboxMessage, pathname: string): URL {
  const links = linksIn(mail).filter((link) => link.pathname === pathname);
  expect(links, mail.text).toHaveLength(1);
  return links[0] as URL;
}

let server: TestServer;
beforeAll(async () => {
  const { tenants, definitions } = exampleTenants();
  server = await startServer({
    tenants: tenants.map((tenant) => ({ ...tenant, hosts: [...tenant.hosts] })),
    definitions,
    env: {
      PUBLIC_ORIGIN: ORIGIN,
      STAFF_API_KEYS: Object.entries(STAFF_KEYS)
        .map(([id, key]) => `${id}=${key}`)
        .join(','),
    },
  });
}, 120_000);
afterAll(async () => server?.close());

describe.each(COLLEGES)('the mail links of $id', (college) => {
  const { id, host, origin } = college;
  const address = (who: string) => `${who}@${id}.example.com`;
  /** A client asking with a link's host, as a browser following it would. */
  const following = (link: URL) => server.client(link.host);

  it('sends the sign-up code with no link', async () => {
    const email = address('signup');
    await registeredClient(server, email, PASSWORD, host);
    const mail = await server.mail(email, 'confirmation code');
    expect(linksIn(mail)).toEqual([]);
  });

  it("mails the applicant's reset link on the college's host, where it resets the password", async () => {
    const email = address('reset');
    await registeredClient(server, email, PASSWORD, host);
    const before = (await server.outbox()).length;
    const forgot = await server.client(host).post('/public/forgot-password', { username: email });
    expect(forgot.status).toBe(200);
    const link = platformLink(
      await server.mail(email, 'reset your password', { after: before }),
      '/reset',
    );
    expect(link.origin).toBe(origin);
    const reset = await following(link).post('/public/reset-password', {
      username: link.searchParams.get('username'),
      id: link.searchParams.get('id'),
      password: 'Brand-New-Pass-7',
      confirm_password: 'Brand-New-Pass-7',
    });
    expect(reset.body).toEqual({ message: serverMessages.resetDone });
  });

  it("mails the staff invitation and reset links on the college's host, where each works", async () => {
    const email = address('registrar');
    const added = await addStaff({
      config: server.built.context.config,
      email,
      role: 'admin',
      serverUrl: server.url,
      host,
    });
    const invitation = platformLink(
      await server.mail(email, 'staff console invitation'),
      '/staff/join',
    );
    expect(invitation.origin).toBe(origin);
    expect(added.link).toBe(invitation.href);
    const token = invitation.searchParams.get('token');
    const opened = await following(invitation).post('/staff/api/invitation', { token });
    expect(opened.body).toEqual({ email, role: 'admin' });
    const joined = await following(invitation).post('/staff/api/join', {
      token,
      password: PASSWORD,
    });
    expect(joined.status, joined.text).toBe(200);

    const asked = await server.client(host).post('/staff/api/forgot-password', { email });
    expect(asked.status).toBe(200);
    const reset = platformLink(
      await server.mail(email, 'reset your staff console password'),
      '/staff/reset',
    );
    expect(reset.origin).toBe(origin);
    const done = await following(reset).post('/staff/api/reset-password', {
      token: reset.searchParams.get('token'),
      password: 'Another-Staff-Pass-9',
    });
    expect(done.body).toEqual({ message: staffPasswordMessages.resetDone });
  });

  it("gives service links on the college's host, from the staff key and from the console", async () => {
    const email = address('applicant');
    const applicant = await registeredClient(server, email, PASSWORD, host);
    await applicant.put('/api/answer', { first_name: 'Ada', last_name: 'Lovelace' });
    const minted = await server
      .client(host)
      .request('POST', '/service/tokens', { email }, { authorization: `Bearer ${STAFF_KEYS[id]}` });
    expect(minted.status, minted.text).toBe(200);
    const keyLink = new URL(minted.body.url as string);
    expect(keyLink.origin).toBe(origin);

    const admin = await enrolledStaff(server, address('dean'), 'admin', host);
    const list = await admin.client.get(`/staff/api/applications?q=${encodeURIComponent(email)}`);
    const row = (list.body.rows as { id: string; email: string }[]).find((r) => r.email === email);
    const fromConsole = await admin.client.post(`/staff/api/applications/${row?.id}/links`);
    expect(fromConsole.status, fromConsole.text).toBe(200);
    const consoleLink = new URL(fromConsole.body.url as string);
    expect(consoleLink.origin).toBe(origin);

    for (const link of [keyLink, consoleLink]) {
      const token = link.searchParams.get('service_token') as string;
      const data = await following(link).get(
        `/service/tmp-pdf?service_token=${encodeURIComponent(token)}`,
      );
      expect(data.status, data.text).toBe(200);
    }
  });

  it("sends a receipt with the reference, the college's time, its steps and a link to its host", async () => {
    const email = address('submitter');
    const applicant = await registeredClient(server, email, PASSWORD, host);
    expect((await applicant.put('/api/answer', college.answers)).status).toBe(200);
    expect((await applicant.post('/api/submit')).status).toBe(200);
    const mail = await server.mail(email, 'we received your application');
    const { submission } = (
      await applicant.get<{ submission: { reference: string; submitted_at: string } }>(
        '/api/profile',
      )
    ).body;
    const { config, completion } = college.institution;
    const at = collegeTime(new Date(submission.submitted_at), config.time_zone);
    expect(at).toMatch(id === 'riverside' ? / CST$/ : / EST$/);
    expect(mail.text).toContain(`${submissionText.reference}: ${submission.reference}`);
    expect(mail.text).toContain(`${submissionText.submitted}: ${at}`);
    expect(mail.text).toContain(completion.header);
    for (const step of completion.steps) {
      expect(mail.text).toContain(step.title);
      expect(mail.text).toContain(step.text);
      for (const link of step.links) expect(mail.text).toContain(`${link.label}: ${link.href}`);
    }
    const home = platformLink(mail, '/completion');
    expect(home.origin).toBe(origin);
    expect(mail.text).not.toContain('Log back in to see the steps');

    // The HTML part says the same, escaped, its links clickable.
    const escaped = (text: string) =>
      text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll("'", '&#39;');
    expect(mail.html).toContain(escaped(completion.header));
    for (const step of completion.steps) {
      expect(mail.html).toContain(escaped(step.text));
      for (const link of step.links)
        expect(mail.html).toContain(`<a href="${escaped(link.href)}">${escaped(link.label)}</a>`);
    }
    expect(mail.html).toContain(`<a href="${home.href}">`);
    expect(mail.html).toContain(escaped(at));
  });
});

describe('tenantOrigin', () => {
  const config = { publicOrigin: 'https://apply.example.edu:8443', defaultTenant: 'northfield' };

  it("takes PUBLIC_ORIGIN's scheme and port and the tenant's first host", () => {
    const harbor = { id: 'harbor', hosts: ['apply.harbor.example.edu', 'harbor.localhost'] };
    expect(tenantOrigin(harbor, config)).toBe('https://apply.harbor.example.edu:8443');
    expect(tenantOrigin(harbor, { ...config, publicOrigin: 'https://apply.example.edu' })).toBe(
      'https://apply.harbor.example.edu',
    );
  });

  it('keeps PUBLIC_ORIGIN for the default tenant, a tenant with no host and an unknown one', () => {
    expect(tenantOrigin({ id: 'northfield', hosts: ['localhost'] }, config)).toBe(
      config.publicOrigin,
    );
    expect(tenantOrigin({ id: 'harbor', hosts: [] }, config)).toBe(config.publicOrigin);
    expect(tenantOrigin(undefined, config)).toBe(config.publicOrigin);
  });
});

describe('the command line without a running server', () => {
  let dataDir: string;
  const email = 'cli@riverside.example.com';
  const RIVER_ORIGIN = 'https://riverside.localhost';

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-cli-links-'));
    const database = await openDatabase({ dataDir });
    const { tenants, definitions } = exampleTenants();
    await ensureTenant(database.db, DEFAULT_TENANT_SEED);
    await ensureTenant(
      database.db,
      tenants[0] as (typeof tenants)[0],
      new Map(definitions.map((definition) => [definition.id, definition])),
    );
    await runInTenant('riverside', () =>
      database.db.insert(users).values({
        tenantId: 'riverside',
        email,
        passwordHash: 'not-a-hash',
        createdAt: new Date(),
      }),
    );
    await database.close();
  }, 60_000);
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  it('links to the college of --host: a service link, and a staff invitation printed and mailed', async () => {
    // No server listens on port 1: each command opens the database itself.
    const config = configFromEnv({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PORT: '1',
      PUBLIC_ORIGIN: 'https://apply.example.edu',
    });
    const minted = await requestServiceLink({ config, email, host: RIVER_HOST });
    expect(minted.via).toBe('database');
    expect(new URL(minted.url).origin).toBe(RIVER_ORIGIN);

    const staff = 'dean@riverside.example.com';
    const added = await addStaff({ config, email: staff, role: 'admin', host: RIVER_HOST });
    expect(added.via).toBe('database');
    expect(new URL(added.link).origin).toBe(RIVER_ORIGIN);
    const outbox = await readFile(path.join(dataDir, 'outbox.jsonl'), 'utf8');
    const mailed = outbox
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as OutboxMessage)
      .find((mail) => mail.to === staff);
    expect(mailed?.text).toContain(added.link);
  }, 60_000);
});
