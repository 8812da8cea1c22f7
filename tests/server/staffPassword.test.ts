/**
 * The staff password links (D157, D166): the join page learns whose invitation it holds and nothing
 * for a bad one; "Forgot password?" mails a single-use, one-hour link to an active account only,
 * answers every address the same, is limited per address, ends every session of the account, is
 * audited, keeps the second factor, and works on its own tenant's host only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffMessages } from '../../contract/staff';
import { staffPasswordMessages } from '../../contract/staffPassword';
import { RESET_VALIDITY_MS } from '../../server/account/accounts';
import { ACCOUNT_LIMITS } from '../../server/account/limits';
import { codeAt } from '../../server/staff/totp';
import { databaseKinds, logCollector, PASSWORD, startServer, type TestServer } from './harness';
import {
  addStaffByCli,
  enrolledStaff,
  invitationToken,
  signIn,
  SOUTH_HOST,
  SOUTHFIELD,
  statusCounts,
} from './staffHelpers';

const BURST = 20;
const NEW_PASSWORD = 'Another-Password-42';
const RESET_SUBJECT = 'reset your staff console password';

describe.each(databaseKinds)('staff password links on %s', (database) => {
  let server: TestServer;
  let adminSecret: string;
  const lines: string[] = [];

  beforeAll(async () => {
    server = await startServer({
      database,
      logStream: logCollector(lines),
      env: { LOG_LEVEL: 'info' },
      tenants: [SOUTHFIELD],
    });
    adminSecret = (await enrolledStaff(server, 'admin@northfield.edu', 'admin')).secret;
  }, 120_000);
  afterAll(async () => server?.close());

  /** Asks for a reset link for `email` and returns the token of the mail it brought. */
  async function resetToken(email: string, host?: string): Promise<string> {
    const before = (await server.outbox()).length;
    const asked = await server.client(host).post('/staff/api/forgot-password', { email });
    expect(asked.body).toEqual({ message: staffPasswordMessages.forgotSent });
    const mail = await server.mail(email, RESET_SUBJECT, { after: before });
    expect(mail.text).toContain('expires in one hour');
    const token = /\/staff\/reset\?token=([A-Za-z0-9_%-]+)/.exec(mail.text)?.[1];
    if (!token) throw new Error('no reset link in the mail');
    return decodeURIComponent(token);
  }

  it('the invitation names its address and role while it is live, and nothing once it is not', async () => {
    await addStaffByCli(server, 'New.Reader@Northfield.edu', 'reader');
    const token = await invitationToken(server, 'new.reader@northfield.edu');
    const shown = await server.client().post('/staff/api/invitation', { token });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ email: 'new.reader@northfield.edu', role: 'reader' });
    // Another college's host, a made-up token and a used one: the join's own refusal, no more.
    const refused = { message: staffMessages.invitationInvalid };
    const elsewhere = await server.client(SOUTH_HOST).post('/staff/api/invitation', { token });
    expect({ status: elsewhere.status, body: elsewhere.body }).toEqual({
      status: 400,
      body: refused,
    });
    const madeUp = await server.client().post('/staff/api/invitation', { token: 'x'.repeat(43) });
    expect({ status: madeUp.status, body: madeUp.body }).toEqual({ status: 400, body: refused });
    expect(
      (await server.client().post('/staff/api/join', { token, password: PASSWORD })).status,
    ).toBe(200);
    const used = await server.client().post('/staff/api/invitation', { token });
    expect({ status: used.status, body: used.body }).toEqual({ status: 400, body: refused });
  });

  it('an unknown, an invited-only and a disabled address get the same answer as a real one, and no mail', async () => {
    await addStaffByCli(server, 'invited@northfield.edu', 'reader');
    const before = (await server.outbox()).length;
    const answers = await Promise.all(
      ['nobody@northfield.edu', 'invited@northfield.edu', 'admin@northfield.edu'].map((email) =>
        server.client().post('/staff/api/forgot-password', { email }),
      ),
    );
    for (const answer of answers)
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 200,
        body: { message: staffPasswordMessages.forgotSent },
      });
    await server.mail('admin@northfield.edu', RESET_SUBJECT, { after: before });
    const sent = (await server.outbox()).slice(before).map((mail) => mail.to);
    expect(sent).toEqual(['admin@northfield.edu']);
    // A disabled account gets no link either.
    const admin = await signIn(server, 'admin@northfield.edu', adminSecret);
    const staff = await admin.get('/staff/api/staff');
    const invited = (staff.body.staff as { id: string; email: string }[]).find(
      (member) => member.email === 'invited@northfield.edu',
    );
    await admin.post(`/staff/api/staff/${invited?.id}/disable`, {});
    const afterDisable = (await server.outbox()).length;
    await server.client().post('/staff/api/forgot-password', { email: 'invited@northfield.edu' });
    expect((await server.outbox()).slice(afterDisable)).toEqual([]);
  });

  it(`${BURST} parallel requests for one address: ${ACCOUNT_LIMITS.resetRequest} links an hour, every answer the same`, async () => {
    await enrolledStaff(server, 'many@northfield.edu', 'reader');
    const before = (await server.outbox()).length;
    const answers = await Promise.all(
      Array.from({ length: BURST }, () =>
        server.client().post('/staff/api/forgot-password', { email: 'many@northfield.edu' }),
      ),
    );
    expect(new Set(answers.map((answer) => JSON.stringify([answer.status, answer.body])))).toEqual(
      new Set([JSON.stringify([200, { message: staffPasswordMessages.forgotSent }])]),
    );
    await server.mail('many@northfield.edu', RESET_SUBJECT, { after: before });
    const mails = (await server.outbox())
      .slice(before)
      .filter((mail) => mail.to === 'many@northfield.edu');
    expect(mails).toHaveLength(ACCOUNT_LIMITS.resetRequest);
  });

  it(`a link is used once: ${BURST} parallel resets with one token, exactly one succeeds`, async () => {
    const staff = await enrolledStaff(server, 'burst@northfield.edu', 'reader');
    const token = await resetToken('burst@northfield.edu');
    const responses = await Promise.all(
      Array.from({ length: BURST }, () =>
        server.client().post('/staff/api/reset-password', { token, password: NEW_PASSWORD }),
      ),
    );
    expect(statusCounts(responses)).toEqual({ 200: 1, 400: BURST - 1 });
    for (const refused of responses.filter((response) => response.status === 400))
      expect(refused.body).toEqual({ message: staffPasswordMessages.resetFailed });
    expect(responses.find((response) => response.status === 200)?.body).toEqual({
      message: staffPasswordMessages.resetDone,
    });
    // The session the account had is over; the new password opens the second factor, no more.
    expect((await staff.client.get('/staff/api/me')).status).toBe(401);
    const old = await server
      .client()
      .post('/staff/api/login', { email: 'burst@northfield.edu', password: PASSWORD });
    expect(old.status).toBe(400);
    const client = server.client();
    const login = await client.post('/staff/api/login', {
      email: 'burst@northfield.edu',
      password: NEW_PASSWORD,
    });
    expect(login.body).toEqual({ email: 'burst@northfield.edu', role: 'reader', stage: 'verify' });
    expect((await client.get('/staff/api/applications')).status).toBe(401);
    server.clock.advance(30_000);
    const verified = await client.post('/staff/api/verify', {
      code: codeAt(staff.secret, server.clock.now()),
    });
    expect(verified.status).toBe(200);
    expect((await client.get('/staff/api/applications')).status).toBe(200);
    // The account was told, and the reset is in the audit log.
    await server.mail('burst@northfield.edu', 'your password was changed');
    const admin = await signIn(server, 'admin@northfield.edu', adminSecret);
    const audit = await admin.get('/staff/api/audit?what=staff.password_reset');
    expect(audit.body.rows).toEqual([
      expect.objectContaining({ actor: 'burst@northfield.edu', action: 'staff.password_reset' }),
    ]);
  });

  it('an expired link and a reused one are refused with our message', async () => {
    await enrolledStaff(server, 'late@northfield.edu', 'reader');
    const token = await resetToken('late@northfield.edu');
    server.clock.advance(RESET_VALIDITY_MS + 1000);
    const logged = lines.length;
    const expired = await server
      .client()
      .post('/staff/api/reset-password', { token, password: NEW_PASSWORD });
    expect({ status: expired.status, body: expired.body }).toEqual({
      status: 400,
      body: { message: staffPasswordMessages.resetFailed },
    });
    // A refused link is a security event, and neither the token nor the password is logged.
    const events = lines
      .slice(logged)
      .filter((line) => line.includes('"event":"token.reset_refused"'));
    expect(events.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(token);
    expect(lines.join('\n')).not.toContain(NEW_PASSWORD);
    const fresh = await resetToken('late@northfield.edu');
    const first = await server
      .client()
      .post('/staff/api/reset-password', { token: fresh, password: NEW_PASSWORD });
    expect(first.status).toBe(200);
    const again = await server
      .client()
      .post('/staff/api/reset-password', { token: fresh, password: 'Third-Password-77' });
    expect({ status: again.status, body: again.body }).toEqual({
      status: 400,
      body: { message: staffPasswordMessages.resetFailed },
    });
  });

  it("a reset link of one college cannot be used on another college's host", async () => {
    await enrolledStaff(server, 'dean@south.edu', 'admin', SOUTH_HOST);
    const token = await resetToken('dean@south.edu', SOUTH_HOST);
    const elsewhere = await server
      .client()
      .post('/staff/api/reset-password', { token, password: NEW_PASSWORD });
    expect({ status: elsewhere.status, body: elsewhere.body }).toEqual({
      status: 400,
      body: { message: staffPasswordMessages.resetFailed },
    });
    // The same address on the other college is a different account: it gets no mail.
    const before = (await server.outbox()).length;
    await server.client().post('/staff/api/forgot-password', { email: 'dean@south.edu' });
    expect((await server.outbox()).slice(before)).toEqual([]);
    const home = await server
      .client(SOUTH_HOST)
      .post('/staff/api/reset-password', { token, password: NEW_PASSWORD });
    expect(home.status).toBe(200);
  });
});
