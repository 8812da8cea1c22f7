/**
 * The staff console's sign-in and access rules (D103): staff added by the command line or
 * invited, the applicant password rules and lockout, TOTP with a code that works once and one-time
 * recovery codes (bursts: exactly one of many parallel uses wins), roles, tenants kept apart, an
 * applicant's session opening nothing of it, and hostile input answered with our 4xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCKOUT_AFTER } from '../../server/account/accounts';
import { staffMessages } from '../../contract/staff';
import { addStaff } from '../../server/cli/staff';
import { CLEAR_SITE_DATA } from '../../server/cookies';
import { codeAt } from '../../server/staff/totp';
import { staffUsers } from '../../server/db/schema';
import { runInTenant } from '../../server/db/tenantScope';
import {
  databaseKinds,
  logCollector,
  PASSWORD,
  startServer,
  type Client,
  type TestServer,
} from './harness';
import {
  adminWithApplicant,
  enrolledStaff,
  invitationToken,
  signIn,
  SOUTH_HOST,
  SOUTHFIELD,
  statusCounts,
  type SignedInStaff,
} from './staffHelpers';

const BURST = 30;

/** A list cursor as the server makes them (base64url JSON), with whatever inside. */
const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe.each(databaseKinds)('staff console sign-in and access on %s', (database) => {
  let server: TestServer;
  let admin: SignedInStaff;
  let applicant: Client;
  let applicantId: string;
  const lines: string[] = [];

  beforeAll(async () => {
    server = await startServer({
      database,
      logStream: logCollector(lines),
      env: { LOG_LEVEL: 'info' },
      tenants: [SOUTHFIELD],
    });
    ({ admin, applicant, applicantId } = await adminWithApplicant(
      server,
      'dean@northfield.edu',
      'ada@example.com',
    ));
  }, 120_000);
  afterAll(async () => server?.close());

  it('the command line adds an admin through the running server; the mailed link joins once', async () => {
    const { link, via } = await addStaff({
      config: server.built.context.config,
      email: 'Registrar@Northfield.edu',
      role: 'admin',
      serverUrl: server.url,
    });
    expect(via).toBe('server');
    expect(link).toMatch(/^http:\/\/app\.test\/staff\/join\?token=/);
    const token = await invitationToken(server, 'registrar@northfield.edu');
    expect(link).toContain(encodeURIComponent(token));
    const joins = await Promise.all(
      Array.from({ length: 10 }, () =>
        server.client().post('/staff/api/join', { token, password: PASSWORD }),
      ),
    );
    expect(statusCounts(joins)).toEqual({ 200: 1, 400: 9 });
    // The command line's call needs the key of DATA_DIR.
    const forged = await server
      .client()
      .request(
        'POST',
        '/staff/api/cli/staff',
        { email: 'mallory@example.com', role: 'admin' },
        { authorization: `Bearer ${'x'.repeat(43)}` },
      );
    expect(forged.status).toBe(401);
  });

  it('a new password must meet the applicant rules', async () => {
    await addStaff({
      config: server.built.context.config,
      email: 'weak@northfield.edu',
      role: 'reader',
      serverUrl: server.url,
    });
    const token = await invitationToken(server, 'weak@northfield.edu');
    const weak = await server.client().post('/staff/api/join', { token, password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.message).toBe('Your password must be at least 12 characters.');
    const common = await server
      .client()
      .post('/staff/api/join', { token, password: 'Password123!' });
    expect(common.status).toBe(400);
  });

  it('the password alone opens only the second factor; a right code opens the console', async () => {
    const client = server.client();
    await client.post('/staff/api/login', { email: 'dean@northfield.edu', password: PASSWORD });
    expect((await client.get('/staff/api/applications')).status).toBe(401);
    expect((await client.get('/staff/api/applications')).body.message).toBe(
      staffMessages.secondFactorRequired,
    );
    expect((await client.get('/staff/api/me')).body.stage).toBe('verify');
    const wrong = await client.post('/staff/api/verify', { code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(staffMessages.codeFailed);
    server.clock.advance(30_000);
    const right = await client.post('/staff/api/verify', {
      code: codeAt(admin.secret, server.clock.now()),
    });
    expect(right.status).toBe(200);
    expect(right.body.stage).toBe('signed-in');
    expect((await client.get('/staff/api/applications')).status).toBe(200);
    // The same code again, within its 30 seconds, from a fresh sign-in: refused.
    server.clock.advance(1_000);
    const replay = server.client();
    await replay.post('/staff/api/login', { email: 'dean@northfield.edu', password: PASSWORD });
    const replayed = await replay.post('/staff/api/verify', {
      code: codeAt(admin.secret, server.clock.now()),
    });
    expect(replayed.status).toBe(400);
    expect(replayed.body.message).toBe(staffMessages.codeFailed);
  });

  it(`a TOTP code works once: ${BURST} parallel uses of one code, exactly one signs in`, async () => {
    const clients = await passwordSignedIn(BURST);
    server.clock.advance(30_000);
    const code = codeAt(admin.secret, server.clock.now());
    const responses = await Promise.all(
      clients.map((client) => client.post('/staff/api/verify', { code })),
    );
    const counts = statusCounts(responses);
    expect(counts[200]).toBe(1);
    expect((counts[400] ?? 0) + (counts[429] ?? 0)).toBe(BURST - 1);
  });

  it(`a recovery code works once: ${BURST} parallel uses, exactly one signs in`, async () => {
    server.clock.advance(16 * 60_000); // past any lockout the previous burst left
    const clients = await passwordSignedIn(BURST);
    const recovery = admin.recoveryCodes[0] as string;
    expect(recovery).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
    const responses = await Promise.all(
      clients.map((client) =>
        client.post('/staff/api/verify', { code: recovery.toLowerCase().replace('-', ' ') }),
      ),
    );
    const counts = statusCounts(responses);
    expect(counts[200]).toBe(1);
    expect((counts[400] ?? 0) + (counts[429] ?? 0)).toBe(BURST - 1);
  });

  it(`the lockout of applicants: after ${LOCKOUT_AFTER} wrong passwords, even the right one waits`, async () => {
    server.clock.advance(16 * 60_000);
    const client = server.client();
    for (let i = 0; i < LOCKOUT_AFTER; i++) {
      const wrong = await client.post('/staff/api/login', {
        email: 'dean@northfield.edu',
        password: 'Wrong-Password-1',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe(staffMessages.loginFailed);
    }
    const locked = await client.post('/staff/api/login', {
      email: 'dean@northfield.edu',
      password: PASSWORD,
    });
    expect(locked.status).toBe(429);
    // An applicant with the same address is not locked by it.
    const applicantLogin = await server
      .client()
      .post('/public/login', { username: 'ada@example.com', password: PASSWORD });
    expect(applicantLogin.status).toBe(200);
    expect(lines.join('\n')).not.toContain('Wrong-Password-1');
    server.clock.advance(16 * 60_000);
  });

  it('five wrong codes lock the second factor too', async () => {
    const client = server.client();
    await client.post('/staff/api/login', { email: 'dean@northfield.edu', password: PASSWORD });
    const statuses: number[] = [];
    for (let i = 0; i < LOCKOUT_AFTER + 1; i++)
      statuses.push((await client.post('/staff/api/verify', { code: '111111' })).status);
    expect(statuses.at(-1)).toBe(429);
    server.clock.advance(16 * 60_000);
  });

  it('a reader reads and downloads, and cannot export or administer', async () => {
    const reader = await enrolledStaff(server, 'reader@northfield.edu', 'reader');
    expect((await reader.client.get('/staff/api/applications')).status).toBe(200);
    const from = lines.length;
    expect((await reader.client.get(`/staff/api/applications/${applicantId}`)).status).toBe(200);
    for (const [method, path, body] of [
      ['GET', '/staff/api/export.csv', undefined],
      ['GET', '/staff/api/staff', undefined],
      ['GET', '/staff/api/audit', undefined],
      ['POST', '/staff/api/invitations', { email: 'x@northfield.edu', role: 'admin' }],
      ['POST', `/staff/api/staff/${applicantId}/disable`, {}],
      ['DELETE', `/staff/api/applications/${applicantId}/links/${'a'.repeat(22)}`, undefined],
    ] as const) {
      const response = await reader.client.request(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.message).toBe(staffMessages.forbidden);
    }
    // Each refusal is its own security event, not a refused command-line key.
    const logged = lines.slice(from);
    expect(logged.filter((line) => line.includes('"staff.role_refused"'))).toHaveLength(6);
    expect(logged.filter((line) => line.includes('"auth.staff_key_refused"'))).toHaveLength(0);
  });

  it(`an export while a reader tries it ${BURST} times in parallel: the admin's only, no reader row`, async () => {
    const reader = { client: await signIn(server, 'reader@northfield.edu', await readerSecret()) };
    admin = { ...admin, client: await adminClient() };
    const [exported, ...tries] = await Promise.all([
      admin.client.get('/staff/api/export.csv?status=started'),
      ...Array.from({ length: BURST }, () => reader.client.get('/staff/api/export.csv')),
    ]);
    expect(exported?.status).toBe(200);
    expect(exported?.text).toContain('ada@example.com');
    expect(statusCounts(tries)).toEqual({ 403: BURST });
    const audit = await admin.client.get('/staff/api/audit');
    const exports = (audit.body.rows as { actor: string; action: string }[]).filter(
      (entry) => entry.action === 'application.export',
    );
    expect(exports.map((entry) => entry.actor)).toEqual(['dean@northfield.edu']);
  });

  it(`an invitation is taken up once: ${BURST} parallel joins with one link`, async () => {
    admin = { ...admin, client: await adminClient() };
    const invited = await admin.client.post('/staff/api/invitations', {
      email: 'burst@northfield.edu',
      role: 'reader',
    });
    expect(invited.status).toBe(200);
    const token = await invitationToken(server, 'burst@northfield.edu');
    const responses = await Promise.all(
      Array.from({ length: BURST }, () =>
        server.client().post('/staff/api/join', { token, password: PASSWORD }),
      ),
    );
    const counts = statusCounts(responses);
    expect(counts[200]).toBe(1);
    expect((counts[400] ?? 0) + (counts[429] ?? 0)).toBe(BURST - 1);
  });

  it('an admin invites, lists and disables staff; a disabled account is signed out at once', async () => {
    admin = { ...admin, client: await adminClient() };
    const invited = await admin.client.post('/staff/api/invitations', {
      email: 'temp@northfield.edu',
      role: 'reader',
    });
    expect(invited.status).toBe(200);
    const temp = await enrolledStaffFromInvitation(server, 'temp@northfield.edu');
    const list = await admin.client.get('/staff/api/staff');
    const row = (list.body.staff as { id: string; email: string; state: string }[]).find(
      (member) => member.email === 'temp@northfield.edu',
    );
    expect(row?.state).toBe('active');
    const disabled = await admin.client.post(`/staff/api/staff/${row?.id}/disable`, {});
    expect(disabled.status).toBe(200);
    expect((await temp.get('/staff/api/applications')).status).toBe(401);
    const again = await admin.client.post('/staff/api/invitations', {
      email: 'dean@northfield.edu',
      role: 'reader',
    });
    expect(again.status).toBe(409);
  });

  it('an applicant session opens no staff route, and the staff cookie opens no applicant route', async () => {
    for (const path of ['/staff/api/applications', '/staff/api/me', '/staff/api/audit'])
      expect((await applicant.get(path)).status).toBe(401);
    const staffOnly = server.client();
    staffOnly.cookies.set('staff', admin.client.cookies.get('staff') as string);
    expect((await staffOnly.get('/api/profile')).status).toBe(401);
  });

  it('signing out ends the session, clears the cookie and the site data as the applicant logout does', async () => {
    const client = await adminClient();
    const ended = client.cookies.get('staff') as string;
    const signedOut = await client.post('/staff/api/logout', {});
    expect(signedOut.status).toBe(200);
    expect(signedOut.body).toEqual({ message: staffMessages.signedOut });
    expect(signedOut.headers.get('clear-site-data')).toBe(CLEAR_SITE_DATA);
    expect(signedOut.headers.getSetCookie()).toEqual([expect.stringMatching(/^staff=;/)]);
    const replay = server.client();
    replay.cookies.set('staff', ended);
    expect((await replay.get('/staff/api/me')).status).toBe(401);
  });

  it('a 401 clears the staff cookie only when its request carried one', async () => {
    const forged = server.client();
    forged.cookies.set('staff', 'ended-staff-session');
    const carried = await forged.get('/staff/api/me');
    expect(carried.status).toBe(401);
    expect(carried.headers.getSetCookie()).toEqual([expect.stringMatching(/^staff=;/)]);
    // A late answer to a request sent without the cookie leaves a newer sign-in alone.
    const bare = await server.client().get('/staff/api/me');
    expect(bare.status).toBe(401);
    expect(bare.headers.getSetCookie()).toEqual([]);
  });

  it('staff of one tenant see nothing of another', async () => {
    // The northern admin's cookie and password do not open the southern tenant.
    const south = server.client(SOUTH_HOST);
    south.cookies.set('staff', admin.client.cookies.get('staff') as string);
    expect((await south.get('/staff/api/applications')).status).toBe(401);
    const login = await server
      .client(SOUTH_HOST)
      .post('/staff/api/login', { email: 'dean@northfield.edu', password: PASSWORD });
    expect(login.status).toBe(400);
    // A southern admin sees no northern applicant, even by id.
    const southAdmin = await enrolledStaff(server, 'dean@southfield.edu', 'admin', SOUTH_HOST);
    const list = await southAdmin.client.get('/staff/api/applications');
    expect(list.body.total).toBe(0);
    expect((await southAdmin.client.get(`/staff/api/applications/${applicantId}`)).status).toBe(
      404,
    );
    const staff = await southAdmin.client.get('/staff/api/staff');
    expect(staff.body.staff.map((member: { email: string }) => member.email)).toEqual([
      'dean@southfield.edu',
    ]);
  });

  it('the TOTP key is stored sealed and never logged; recovery codes only as hashes', async () => {
    const rows = await runInTenant('northfield', () =>
      server.built.database.db.select().from(staffUsers),
    );
    const row = rows.find((member) => member.email === 'dean@northfield.edu');
    expect(row?.totpSecret).toMatch(/^v1\./);
    expect(row?.totpSecret).not.toContain(admin.secret);
    const log = lines.join('\n');
    expect(log).not.toContain(admin.secret);
    for (const code of admin.recoveryCodes) expect(log).not.toContain(code);
  });

  it('hostile input: our 4xx and message, never a 500, nothing of it in the log', async () => {
    admin = { ...admin, client: await adminClient() };
    const marker = 'hostile-marker-7f3a';
    const cases: [string, string, unknown][] = [
      ['POST', '/staff/api/login', { email: `a\u0000${marker}@x.org`, password: 'x' }],
      ['POST', '/staff/api/login', { email: `\ud800${marker}@x.org`, password: 'x' }],
      ['POST', '/staff/api/login', { email: ['a@x.org'], password: 1 }],
      ['POST', '/staff/api/login', 'null'],
      ['POST', '/staff/api/login', { email: 'a@x.org', password: 'x'.repeat(300) }],
      ['POST', '/staff/api/verify', { code: `12345${marker}` }],
      ['POST', '/staff/api/join', { token: { $ne: null }, password: PASSWORD }],
      ['POST', '/staff/api/invitations', { email: 'b@x.org', role: 'owner' }],
      [
        'POST',
        '/staff/api/invitations',
        { email: 'b@x.org', role: 'admin', extra: 'x'.repeat(2e6) },
      ],
      ['GET', `/staff/api/applications?status=${marker}`, undefined],
      ['GET', '/staff/api/applications?last=2', undefined],
      ['GET', `/staff/api/applications?after=${marker}!`, undefined],
      ['GET', `/staff/api/applications?after=${'%00'}${marker}`, undefined],
      ['GET', `/staff/api/applications?before=${'%ED%A0%80'}${marker}`, undefined],
      ['GET', `/staff/api/applications?q=${marker}${'x'.repeat(10_000)}`, undefined],
      ['GET', `/staff/api/applications?after=${cursor(['x', marker])}`, undefined],
      ['GET', `/staff/api/applications?after=${cursor([{ marker }, applicantId])}`, undefined],
      [
        'GET',
        `/staff/api/applications?sort=documents&after=${cursor(['1', applicantId])}`,
        undefined,
      ],
      [
        'GET',
        `/staff/api/applications?after=${Buffer.from(marker).toString('base64url')}`,
        undefined,
      ],
      ['GET', `/staff/api/applications?after=${'A'.repeat(2_000)}`, undefined],
      ['GET', `/staff/api/applications?after=${marker}&after=${marker}`, undefined],
      ['GET', `/staff/api/export.csv?status=${marker}`, undefined],
      ['GET', '/staff/api/applications?size=7', undefined],
      ['GET', '/staff/api/applications?sort=password_hash', undefined],
      ['GET', '/staff/api/applications?status=started&status=submitted', undefined],
      ['GET', `/staff/api/applications?q=${'%00'}${marker}`, undefined],
      ['GET', `/staff/api/applications?from=2026-13-45${marker}`, undefined],
      ['GET', `/staff/api/applications/${marker}`, undefined],
      ['GET', `/staff/api/applications/${applicantId}/documents/..%2F..%2Fetc`, undefined],
      ['GET', '/staff/api/nothing-here', undefined],
    ];
    for (const [method, path, body] of cases) {
      const response = await admin.client.request(method, path, body);
      expect(response.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${method} ${path}`).toBeLessThan(500);
      expect(typeof response.body.message, `${method} ${path}`).toBe('string');
    }
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const deepResponse = await admin.client.request('POST', '/staff/api/invitations', deep);
    expect(deepResponse.status).toBe(400);
    expect(lines.join('\n')).not.toContain(marker);
  });

  it('wrong methods are 405, cross-site writes are refused', async () => {
    expect((await admin.client.request('GET', '/staff/api/login')).status).toBe(405);
    const crossSite = await admin.client.request(
      'POST',
      '/staff/api/invitations',
      { email: 'c@northfield.edu', role: 'reader' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
  });

  it('the session ends after 20 idle minutes', async () => {
    const client = await signIn(server, 'reader@northfield.edu', await readerSecret());
    expect((await client.get('/staff/api/applications')).status).toBe(200);
    server.clock.advance(21 * 60_000);
    expect((await client.get('/staff/api/applications')).status).toBe(401);
  });

  /** Sessions past the password step, one after another (parallel correct passwords meet the lockout). */
  async function passwordSignedIn(count: number): Promise<Client[]> {
    const clients: Client[] = [];
    for (let i = 0; i < count; i++) {
      const client = server.client();
      const login = await client.post('/staff/api/login', {
        email: 'dean@northfield.edu',
        password: PASSWORD,
      });
      expect(login.status).toBe(200);
      clients.push(client);
    }
    return clients;
  }

  /** The admin signed in again (the fake clock jumps past the idle timeout between tests). */
  async function adminClient(): Promise<Client> {
    return signIn(server, 'dean@northfield.edu', admin.secret);
  }

  /** The reader's key, read back through the app's own unsealing (the test acts as their phone). */
  async function readerSecret(): Promise<string> {
    const { open } = await import('../../server/crypto/secretBox');
    const rows = await runInTenant('northfield', () =>
      server.built.database.db.select().from(staffUsers),
    );
    const row = rows.find((member) => member.email === 'reader@northfield.edu');
    return open(server.built.context.config, row?.totpSecret as string, `northfield:${row?.id}`);
  }
});

async function enrolledStaffFromInvitation(server: TestServer, email: string): Promise<Client> {
  const client = server.client();
  await client.post('/staff/api/join', {
    token: await invitationToken(server, email),
    password: PASSWORD,
  });
  await client.post('/staff/api/login', { email, password: PASSWORD });
  const secret = (await client.get('/staff/api/enrolment')).body.secret as string;
  const enrolled = await client.post('/staff/api/enrolment', {
    code: codeAt(secret, server.clock.now()),
  });
  expect(enrolled.status).toBe(200);
  return client;
}
