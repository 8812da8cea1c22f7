/**
 * Hostile bytes through every staff route (docs/security.md), read from the app itself so
 * a new `/staff/api` route is covered without editing this file, as a signed-in admin, as a session
 * that has only passed the password, and anonymously: NUL bytes, lone surrogates, over-long values,
 * huge and deeply nested bodies, wrong types, values outside the option lists, malformed dates and
 * repeated parameters. Every answer is a 4xx with the product's message (never a 500), and no log
 * line, at any level, carries a value sent. Then the single-use steps the console adds, in bursts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC_ERROR_MESSAGE } from '../../contract';
import { staffMessages } from '../../contract/staff';
import { cliKey } from '../../server/serviceView/serviceTokens';
import { codeAt } from '../../server/staff/totp';
import {
  databaseKinds,
  logCollector,
  PASSWORD,
  startServer,
  type Client,
  type TestServer,
} from '../server/harness';
import {
  addStaffByCli,
  adminWithApplicant,
  invitationToken,
  signIn,
  type SignedInStaff,
} from '../server/staffHelpers';
import { encodeKeepingSurrogates as encode, expectNotLogged, hostileValues, mark } from './helpers';

const BURST = 30;

interface Link {
  id: string;
  revoked_at: string | null;
}

/** Every query parameter a staff route reads (the lists' search, filters, sort and pages). */
const QUERY_NAMES = [
  'q',
  'status',
  'from',
  'to',
  'sort',
  'dir',
  'after',
  'before',
  'last',
  'size',
  'who',
  'what',
  'applicant',
];
/** Every body field a staff route reads. */
const BODY_NAMES = ['email', 'password', 'code', 'token', 'role', 'columns'];

/** The route with every parameter, and every query parameter, given the value. */
function urlFor(route: string, value: string): string {
  const path = route
    .split('/')
    .map((segment) => (segment.startsWith(':') ? encode(value) : segment))
    .join('/');
  return `${path}?${QUERY_NAMES.map((name) => `${name}=${encode(value)}`).join('&')}`;
}

function jsonBodies(value: string): string[] {
  const flat = Object.fromEntries(BODY_NAMES.map((name) => [name, value]));
  return [
    JSON.stringify(flat),
    JSON.stringify({ ...flat, [value]: value }),
    JSON.stringify({ email: [value], password: { value }, code: 123456, role: null }),
    JSON.stringify([flat]),
  ];
}

/** A route with its parameters filled with real ids (so the handler, not the parameter check, runs). */
function realUrl(route: string, ids: Record<string, string>): string {
  return route
    .split('/')
    .map((segment) => (segment.startsWith(':') ? (ids[segment.slice(1)] ?? segment) : segment))
    .join('/');
}

describe.each(databaseKinds)('hostile input on every staff route, on %s', (database) => {
  let server: TestServer;
  let admin: SignedInStaff;
  let applicantId: string;
  let readerId: string;
  let tokenId: string;
  const lines: string[] = [];
  const sent: string[] = [];

  /** The admin signed in again (a walk may outlast the idle timeout of the fake clock's session). */
  const adminClient = () => signIn(server, 'dean@northfield.edu', admin.secret);

  beforeAll(async () => {
    server = await startServer({
      database,
      // Production refuses an http: origin off this machine (D132).
      env: { NODE_ENV: 'production', LOG_LEVEL: 'trace', PUBLIC_ORIGIN: 'http://localhost' },
      config: { publicRateLimit: 1_000_000, lookupRateLimit: 1_000_000 },
      logStream: logCollector(lines),
    });
    ({ admin, applicantId } = await adminWithApplicant(
      server,
      'dean@northfield.edu',
      `hostile.staff.${database}@example.com`,
    ));
    await addStaffByCli(server, 'reader@northfield.edu', 'reader');
    readerId = (await admin.client.get('/staff/api/staff')).body.staff.find(
      (member: { email: string }) => member.email === 'reader@northfield.edu',
    ).id as string;
    const minted = await admin.client.post(`/staff/api/applications/${applicantId}/links`, {});
    expect(minted.status).toBe(200);
    const links = await admin.client.get(`/staff/api/applications/${applicantId}/links`);
    tokenId = links.body.links[0].id as string;
  }, 120_000);
  afterAll(async () => server?.close());

  /** Every answer to bad input: a 4xx with a product message, or a 2xx that ignored it. */
  function expectHandled(label: string, response: { status: number; body: unknown }) {
    expect(response.status, label).toBeGreaterThanOrEqual(200);
    expect(response.status, label).toBeLessThan(500);
    if (response.status >= 400) {
      const message = (response.body as { message?: unknown }).message;
      expect(typeof message, label).toBe('string');
      expect(message, label).not.toBe(GENERIC_ERROR_MESSAGE);
    }
  }

  const staffRoutes = () =>
    server.built.routes.filter(
      (route) => route.url.startsWith('/staff/api/') && !['OPTIONS', 'HEAD'].includes(route.method),
    );

  it('every staff route answers hostile paths, queries and bodies with a 4xx and its message: as an admin, half signed in, anonymous', async () => {
    const routes = staffRoutes();
    expect(routes.length).toBeGreaterThan(18);
    const pending = server.client();
    expect(
      (await pending.post('/staff/api/login', { email: 'dean@northfield.edu', password: PASSWORD }))
        .status,
    ).toBe(200);
    let requests = 0;
    for (const value of hostileValues()) {
      sent.push(value);
      const clients: [string, Client][] = [
        ['admin', await adminClient()],
        ['pending', pending],
        ['anonymous', server.client()],
      ];
      for (const route of routes)
        for (const [who, client] of clients) {
          // Signing out is walked anonymously only: the other two stay signed in for the walk.
          if (who !== 'anonymous' && route.url.endsWith('/logout')) continue;
          const headers = { authorization: `Bearer ${value.slice(0, 60).replace(/\W/g, 'x')}` };
          const bodies = route.method === 'GET' ? [undefined] : jsonBodies(value);
          for (const body of bodies) {
            const response = await client.request(
              route.method,
              urlFor(route.url, value),
              body,
              headers,
            );
            requests++;
            expectHandled(
              `${who} ${route.method} ${route.url} ${body?.slice(0, 40) ?? ''}`,
              response,
            );
          }
          // The same values where the route's own ids are real, so the handler reads them.
          const url = `${realUrl(route.url, { id: applicantId, tokenId, key: 'transcript' })}?${QUERY_NAMES.map((name) => `${name}=${encode(value)}`).join('&')}`;
          const response = await client.request(route.method, url, bodies[0], headers);
          requests++;
          expectHandled(`${who} ${route.method} ${url.slice(0, 80)} (real ids)`, response);
        }
    }
    console.info(
      `[staff hostile ${database}] ${routes.length} routes, ${requests} requests, no 5xx`,
    );
  }, 600_000);

  it('bodies: huge, deeply nested, wrong types, wrong content types: 400 or 413 with our message', async () => {
    const client = await adminClient();
    const marker = mark();
    sent.push(marker);
    const writes = staffRoutes().filter((route) => route.method === 'POST');
    const bodies: [string, string, Record<string, string>?][] = [
      ['huge', JSON.stringify({ email: `${marker}@x.org`, pad: 'x'.repeat(2_000_000) })],
      ['deep', '['.repeat(5000) + `"${marker}"` + ']'.repeat(5000)],
      ['deep object', '{"a":'.repeat(3000) + `"${marker}"` + '}'.repeat(3000)],
      ['null', 'null'],
      ['number', '12345'],
      ['string', JSON.stringify(marker)],
      ['types', JSON.stringify({ email: 1, password: true, code: [marker], token: { $ne: null } })],
      ['broken', `{"email": "${marker}`],
      ['form', `email=${marker}`, { 'content-type': 'application/x-www-form-urlencoded' }],
      ['text', marker, { 'content-type': 'text/plain' }],
    ];
    for (const route of writes)
      for (const [label, body, headers] of bodies) {
        const url = realUrl(route.url, { id: readerId });
        const target = route.url.startsWith('/staff/api/applications')
          ? realUrl(route.url, { id: applicantId })
          : url;
        const response = await client.request('POST', target, body, {
          authorization: `Bearer ${cliKey(server.built.context.config)}`,
          ...headers,
        });
        // The few writes that read no body (signing out, minting a link, disabling) may succeed.
        expectHandled(`POST ${route.url} ${label}`, response);
        if (route.url.endsWith('/logout') && response.status === 200) {
          const again = await adminClient();
          client.cookies.clear();
          for (const [name, cookie] of again.cookies) client.cookies.set(name, cookie);
        }
      }
    // The reader was disabled by one of the walks above if a body-less disable got through: that
    // is a 200 from a real admin, not hostile input; the account is not needed again.
  });

  it("the audit log: unknown people, events and applicants, made-up cursors, malformed days are the lists' refusal", async () => {
    const client = await adminClient();
    const marker = mark();
    sent.push(marker);
    for (const query of [
      `who=${marker}`,
      'who=CLI',
      'who=dean@northfield.edu',
      `who=${readerId}&who=cli`,
      'what=application.eat',
      'what=APPLICATION.READ',
      `what=${marker}`,
      'applicant=not-a-uuid',
      `applicant=${applicantId}x`,
      'from=2026-02-30',
      'to=0000-01-01',
      `from=2026-01-01T00:00:00Z${marker}`,
      `after=${marker}`,
      // Valid base64url JSON of the wrong shape: a name for a time, a word for an id, a rank.
      `after=${Buffer.from(JSON.stringify(['yesterday', '1'])).toString('base64url')}`,
      `after=${Buffer.from(JSON.stringify(['2026-11-02T15:00:00.000000Z', 'x1'])).toString('base64url')}`,
      `before=${Buffer.from(JSON.stringify(['2026-11-02T15:00:00.000000Z', '1', 1])).toString('base64url')}`,
      `after=${Buffer.from(JSON.stringify(['2026-11-02T15:00:00.000000Z', '9'.repeat(30)])).toString('base64url')}`,
      'size=1000',
    ]) {
      const response = await client.get(`/staff/api/audit?${query}`);
      expect(response, query).toMatchObject({
        status: 400,
        body: { message: staffMessages.badFilter },
      });
    }
    // An applicant or staff member of nobody's is no error: nothing matches.
    const nobody = await client.get(
      '/staff/api/audit?applicant=00000000-0000-4000-8000-000000000000&who=00000000-0000-4000-8000-000000000000',
    );
    expect(nobody).toMatchObject({ status: 200, body: { total: 0, rows: [] } });
  });

  it('the list and the export: values outside the option lists, malformed dates, long searches, repeated parameters', async () => {
    const client = await adminClient();
    const marker = mark();
    sent.push(marker);
    const queries = [
      `status=${marker}`,
      'status=SUBMITTED',
      'status=',
      `sort=${marker}`,
      'sort=password_hash',
      'sort=name;drop table users',
      'dir=up',
      'size=0',
      'size=-25',
      'size=1e2',
      'size=25.0001',
      'size=10000',
      'last=0',
      'role=owner',
      'from=2026-13-45',
      'from=2026-02-30',
      'to=2026-00-10',
      'from=0000-01-01',
      'to=9999-99-99',
      'from=2026-1-1',
      `from=2026-01-01T00:00:00Z${marker}`,
      'from=２０２６-01-01',
      `q=${'word '.repeat(20)}${marker}`,
      `q=${marker}${'x'.repeat(100)}`,
      `q=${marker}${'%E2%80%8B'.repeat(200)}`,
      `q=%00${marker}`,
      `q=%ED%A0%80${marker}`,
      `q=${marker}%0D%0A`,
      `q=a&q=${marker}`,
      `status=started&status=${marker}`,
      `sort=name&sort=${marker}`,
      `from=2026-01-01&from=${marker}`,
      `size=25&size=50`,
      `after=${marker}&before=${marker}`,
      `q[]=${marker}`,
      `q[a]=${marker}`,
      `__proto__=${marker}`,
    ];
    for (const path of ['/staff/api/applications', '/staff/api/export.csv'])
      for (const query of queries) {
        const response = await client.get(`${path}?${query}`);
        expectHandled(`${path}?${query.slice(0, 60)}`, response);
      }
    // Values a user can type into the date fields: refused with the list's message, not read as
    // another day (February 30th is not March 2nd).
    for (const from of ['2026-13-45', '2026-02-30', '0000-01-01', '2026-00-10']) {
      const response = await client.get(`/staff/api/applications?from=${from}`);
      expect(response, from).toMatchObject({
        status: 400,
        body: { message: staffMessages.badFilter },
      });
    }
    const leap = await client.get('/staff/api/applications?from=2028-02-29&to=2028-02-29');
    expect(leap.status).toBe(200);
    const repeated = await client.get(`/staff/api/applications?status=started&status=${marker}`);
    expect(repeated).toMatchObject({ status: 400, body: { message: staffMessages.badFilter } });
    const long = await client.get(`/staff/api/applications?q=${'x'.repeat(101)}`);
    expect(long).toMatchObject({ status: 400, body: { message: staffMessages.badFilter } });
    const invite = await client.post('/staff/api/invitations', {
      email: 'x@northfield.edu',
      role: 'owner',
    });
    expect(invite).toMatchObject({ status: 400, body: { message: staffMessages.role } });
  });

  it(`finishing enrolment is single-use: ${BURST} parallel codes, one set of recovery codes`, async () => {
    await addStaffByCli(server, 'enrol.burst@northfield.edu', 'reader');
    const client = server.client();
    const joined = await client.post('/staff/api/join', {
      token: await invitationToken(server, 'enrol.burst@northfield.edu'),
      password: PASSWORD,
    });
    expect(joined.status).toBe(200);
    await client.post('/staff/api/login', {
      email: 'enrol.burst@northfield.edu',
      password: PASSWORD,
    });
    const secret = (await client.get('/staff/api/enrolment')).body.secret as string;
    const code = codeAt(secret, server.clock.now());
    const responses = await Promise.all(
      Array.from({ length: BURST }, () => client.post('/staff/api/enrolment', { code })),
    );
    const issued = responses.filter((response) => response.status === 200);
    expect(issued).toHaveLength(1);
    for (const response of responses)
      if (response.status !== 200) {
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
      }
    // The one set issued is the one that works: a code of it signs in, once the refused codes'
    // lockout is over (the 29 refusals count as wrong codes).
    const [recovery] = issued[0]!.body.recovery_codes as string[];
    server.clock.advance(16 * 60_000);
    const again = server.client();
    await again.post('/staff/api/login', {
      email: 'enrol.burst@northfield.edu',
      password: PASSWORD,
    });
    expect((await again.post('/staff/api/verify', { code: recovery })).status).toBe(200);
  });

  it(`revoking a link: ${BURST} parallel revocations, none a 5xx, the link stays revoked`, async () => {
    const client = await adminClient();
    const minted = await client.post(`/staff/api/applications/${applicantId}/links`, {});
    expect(minted.status).toBe(200);
    const links = (await client.get(`/staff/api/applications/${applicantId}/links`)).body
      .links as Link[];
    const fresh = links.find((link) => link.revoked_at === null && link.id !== tokenId)!;
    const responses = await Promise.all(
      Array.from({ length: BURST }, () =>
        client.request('DELETE', `/staff/api/applications/${applicantId}/links/${fresh.id}`),
      ),
    );
    for (const response of responses) expectHandled('revoke', response);
    expect(responses.filter((response) => response.status === 200).length).toBeGreaterThan(0);
    const after = (await client.get(`/staff/api/applications/${applicantId}/links`)).body
      .links as Link[];
    expect(after.find((link) => link.id === fresh.id)?.revoked_at).not.toBeNull();
  });

  it('no log line, at any level, carries a value that was sent', () =>
    expectNotLogged(sent, lines, 500));
});
