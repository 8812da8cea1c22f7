import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import { runInTenant } from '../../server/db/tenantScope';
import { DEFAULT_TENANT_SEED } from '../../server/tenants';
import {
  codeIn,
  databaseKinds,
  PASSWORD,
  registeredClient,
  startServer,
  type TestServer,
} from './harness';

const HOUR = 60 * 60 * 1000;

describe.each(databaseKinds)('accounts on %s', (database) => {
  let server: TestServer;
  let n = 0;
  /** A fresh address per test, so tests do not share limits. */
  const email = (label: string) => `${label}.${++n}@example.com`;

  beforeAll(async () => {
    server = await startServer({ database });
  });
  afterAll(async () => server?.close());

  describe('sign-up and confirmation', () => {
    it('sends a six-digit code to the outbox and confirms with it', async () => {
      const address = email('flow');
      const client = server.client();
      const signup = await client.post('/public/signup', { username: address, password: PASSWORD });
      expect(signup).toMatchObject({ status: 200, body: { message: serverMessages.signedUp } });
      const mail = await server.mail(address, 'confirmation code');
      expect(mail.subject).toBe('Northfield College: your confirmation code');
      expect(codeIn(mail)).toMatch(/^\d{6}$/);
      const confirm = await client.post('/public/confirm', {
        username: address,
        code: codeIn(mail),
      });
      expect(confirm).toMatchObject({ status: 200, body: { message: serverMessages.confirmed } });
      const login = await client.post('/public/login', { username: address, password: PASSWORD });
      expect(login).toMatchObject({ status: 200, body: { message: serverMessages.loggedIn } });
    });

    it('enforces the password rules on the server, rule by rule, never trimming', async () => {
      const cases: [string, string][] = [
        ['Abcdefgh1!x', 'Your password must be at least 12 characters.'],
        ['abcdefghij1!', 'Your password must contain at least one uppercase letter.'],
        ['ABCDEFGHIJ1!', 'Your password must contain at least one lowercase letter.'],
        ['Abcdefghijk!', 'Your password must contain at least one number.'],
        ['Abcdefghijk1', 'Your password must contain at least one special character.'],
        [' Abcdefghij1!', 'Your password must not contain leading or trailing whitespace.'],
        ['Abcdefghij1!\t', 'Your password must not contain leading or trailing whitespace.'],
        [`Aa1!${'x'.repeat(253)}`, 'Your password can have at most 256 characters.'],
      ];
      for (const [password, message] of cases) {
        const response = await server
          .client()
          .post('/public/signup', { username: email('rules'), password });
        expect(response.status, password).toBe(400);
        expect(response.body.message, password).toBe(message);
      }
    });

    it('accepts an interior space as the special character and a 256-character password', async () => {
      expect(
        (
          await server
            .client()
            .post('/public/signup', { username: email('space'), password: 'Abcd efghij1' })
        ).status,
      ).toBe(200);
      const long = `Aa1!${'x'.repeat(252)}`;
      expect(long).toHaveLength(256);
      const address = email('long');
      const client = await registeredClient(server, address, long);
      expect((await client.get('/api/profile')).status).toBe(200);
    });

    it('checks a 256-character password exactly: a truncated copy does not log in', async () => {
      const long = `Bb2@${'y'.repeat(252)}`;
      const address = email('exact');
      await registeredClient(server, address, long);
      for (const truncated of [long.slice(0, 72), long.slice(0, 255)]) {
        const response = await server
          .client()
          .post('/public/login', { username: address, password: truncated });
        expect(response).toMatchObject({
          status: 400,
          body: { message: serverMessages.loginFailed },
        });
      }
    });

    it('refuses a commonly used password', async () => {
      const response = await server
        .client()
        .post('/public/signup', { username: email('common'), password: 'Password123!' });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('This password is too common. Please choose another.');
    });

    it('rejects an invalid e-mail address with the sign-up message', async () => {
      const response = await server
        .client()
        .post('/public/signup', { username: 'not-an-email', password: PASSWORD });
      expect(response).toMatchObject({
        status: 400,
        body: { message: 'Your email address must be valid.' },
      });
    });

    it('answers a sign-up with a registered address exactly like a new one, and tells the owner', async () => {
      const address = email('taken');
      await registeredClient(server, address);
      const before = (await server.outbox()).length;
      const again = await server
        .client()
        .post('/public/signup', { username: address, password: 'Another-Pass-99' });
      const fresh = await server
        .client()
        .post('/public/signup', { username: email('fresh'), password: 'Another-Pass-99' });
      expect(again.status).toBe(fresh.status);
      expect(again.body).toEqual(fresh.body);
      await server.mail(address, 'someone tried to create an account', { after: before });
      // No second account: the original password still logs in, the new one does not.
      expect(
        (await server.client().post('/public/login', { username: address, password: PASSWORD }))
          .status,
      ).toBe(200);
      expect(
        (
          await server
            .client()
            .post('/public/login', { username: address, password: 'Another-Pass-99' })
        ).status,
      ).toBe(400);
    });

    it('treats addresses case-insensitively', async () => {
      const address = email('case');
      await registeredClient(server, address);
      const login = await server
        .client()
        .post('/public/login', { username: address.toUpperCase(), password: PASSWORD });
      expect(login.status).toBe(200);
    });
  });

  describe('confirmation codes (REQ-ID-1)', () => {
    async function signUp(address: string) {
      const before = (await server.outbox()).length;
      await server.client().post('/public/signup', { username: address, password: PASSWORD });
      return codeIn(await server.mail(address, 'confirmation code', { after: before }));
    }
    const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

    it('requires exactly six digits', async () => {
      for (const code of ['12345', '1234567', 'abcdef', '4217']) {
        const response = await server
          .client()
          .post('/public/confirm', { username: email('digits'), code });
        expect(response).toMatchObject({
          status: 400,
          body: { message: 'The confirmation code must be exactly 6 numbers.' },
        });
      }
    });

    it('is single use', async () => {
      const address = email('once');
      const code = await signUp(address);
      expect(
        (await server.client().post('/public/confirm', { username: address, code })).status,
      ).toBe(200);
      const again = await server.client().post('/public/confirm', { username: address, code });
      expect(again).toMatchObject({ status: 400, body: { message: serverMessages.confirmFailed } });
    });

    it("does not confirm another account with one account's code", async () => {
      const a = email('owner-a');
      const b = email('owner-b');
      const codeA = await signUp(a);
      await signUp(b);
      expect(
        (await server.client().post('/public/confirm', { username: b, code: codeA })).status,
      ).toBe(400);
    });

    it('is void after 10 wrong guesses, even for the right code', async () => {
      const address = email('guesses');
      const code = await signUp(address);
      for (let i = 0; i < 10; i++) {
        expect(
          (await server.client().post('/public/confirm', { username: address, code: wrong(code) }))
            .status,
        ).toBe(400);
      }
      expect(
        (await server.client().post('/public/confirm', { username: address, code })).status,
      ).toBe(400);
    });

    it('expires after 24 hours', async () => {
      const local = await startServer({ database });
      try {
        const address = 'expiry@example.com';
        const before = (await local.outbox()).length;
        await local.client().post('/public/signup', { username: address, password: PASSWORD });
        const code = codeIn(await local.mail(address, 'confirmation code', { after: before }));
        local.clock.advance(24 * HOUR + 1000);
        const response = await local.client().post('/public/confirm', { username: address, code });
        expect(response).toMatchObject({
          status: 400,
          body: { message: serverMessages.confirmFailed },
        });
      } finally {
        await local.close();
      }
    });

    it('allows at most 15 tries per hour, then refuses even the right code until the hour has passed', async () => {
      const local = await startServer({ database });
      try {
        const address = 'tries@example.com';
        const before = (await local.outbox()).length;
        await local.client().post('/public/signup', { username: address, password: PASSWORD });
        const code = codeIn(await local.mail(address, 'confirmation code', { after: before }));
        for (let i = 0; i < 15; i++)
          await local.client().post('/public/confirm', { username: address, code: wrong(code) });
        // A fresh code (a resend clears the wrong guesses), but the 15 tries of this hour are spent.
        const resendBefore = (await local.outbox()).length;
        await local.client().post('/public/resend-confirm', { username: address });
        const fresh = codeIn(
          await local.mail(address, 'confirmation code', { after: resendBefore }),
        );
        expect(
          (await local.client().post('/public/confirm', { username: address, code: fresh })).status,
        ).toBe(400);
        local.clock.advance(HOUR);
        expect(
          (await local.client().post('/public/confirm', { username: address, code: fresh })).status,
        ).toBe(200);
      } finally {
        await local.close();
      }
    });

    it('a resend replaces the previous code', async () => {
      const address = email('resend');
      const first = await signUp(address);
      const before = (await server.outbox()).length;
      const resend = await server.client().post('/public/resend-confirm', { username: address });
      expect(resend).toMatchObject({ status: 200, body: { message: serverMessages.resent } });
      const second = codeIn(await server.mail(address, 'confirmation code', { after: before }));
      if (second !== first)
        expect(
          (await server.client().post('/public/confirm', { username: address, code: first }))
            .status,
        ).toBe(400);
      expect(
        (await server.client().post('/public/confirm', { username: address, code: second })).status,
      ).toBe(200);
    });

    it('sends at most 5 codes per hour; the answer stays the same', async () => {
      const address = email('resend-limit');
      await signUp(address); // the first code counts
      for (let i = 0; i < 6; i++) {
        const response = await server
          .client()
          .post('/public/resend-confirm', { username: address });
        expect(response).toMatchObject({ status: 200, body: { message: serverMessages.resent } });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      const codes = (await server.outbox()).filter(
        (m) => m.to === address && m.subject.includes('confirmation code'),
      );
      expect(codes).toHaveLength(5);
    });

    it('answers a resend for an unknown address exactly like a known one, and sends nothing', async () => {
      const address = email('ghost');
      const known = email('known');
      await signUp(known);
      const unknown = await server.client().post('/public/resend-confirm', { username: address });
      const real = await server.client().post('/public/resend-confirm', { username: known });
      expect(unknown.status).toBe(real.status);
      expect(unknown.body).toEqual(real.body);
      expect((await server.outbox()).some((m) => m.to === address)).toBe(false);
    });

    it('stores codes hashed, never as typed', async () => {
      const address = email('hashed');
      const code = await signUp(address);
      // In the tenant's scope: on PostgreSQL, row-level security shows nothing outside one (D56).
      const rows = await runInTenant(DEFAULT_TENANT_SEED.id, () =>
        server.built.database.db.execute(sql`select * from confirmation_codes`),
      );
      expect((rows as unknown as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
      const dump = JSON.stringify(rows);
      expect(dump).not.toContain(code);
    });
  });

  describe('login', () => {
    it('says the same for an unknown address and a wrong password', async () => {
      const address = email('enumeration');
      await registeredClient(server, address);
      const unknown = await server
        .client()
        .post('/public/login', { username: email('nobody'), password: PASSWORD });
      const wrongPassword = await server
        .client()
        .post('/public/login', { username: address, password: 'Wrong-Pass-123' });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual(wrongPassword.body);
      expect(unknown.body).toEqual({ message: 'Incorrect email address or password.' });
    });

    it('leads an unconfirmed account with the right password to confirmation, and says nothing special otherwise', async () => {
      const address = email('unconfirmed');
      await server.client().post('/public/signup', { username: address, password: PASSWORD });
      // The account is made by the sign-up's job, after the answer (D193).
      await server.settled();
      const right = await server
        .client()
        .post('/public/login', { username: address, password: PASSWORD });
      expect(right).toMatchObject({
        status: 403,
        body: { message: serverMessages.notConfirmed, code: 'UserNotConfirmed' },
      });
      const wrongPassword = await server
        .client()
        .post('/public/login', { username: address, password: 'Wrong-Pass-123' });
      expect(wrongPassword.body).toEqual({ message: 'Incorrect email address or password.' });
    });

    it('uses the login messages of SPEC 5.2', async () => {
      expect(
        (await server.client().post('/public/login', { username: 'nope', password: 'x' })).body
          .message,
      ).toBe('Please provide a valid email address.');
      expect(
        (await server.client().post('/public/login', { username: email('x'), password: '' })).body
          .message,
      ).toBe('Password is required.');
    });
  });

  describe('lockout (REQ-ID-2)', () => {
    it('locks after the 5th failure for 1 s, doubling per failure, and attempts during a lockout do not count', async () => {
      const local = await startServer({ database });
      try {
        const address = 'locked@example.com';
        await registeredClient(local, address);
        const attempt = (password: string) =>
          local.client().post('/public/login', { username: address, password });
        for (let i = 1; i <= 4; i++) expect((await attempt('Wrong-Pass-123')).status).toBe(400);
        expect((await attempt('Wrong-Pass-123')).status).toBe(400); // 5th failure: locked for 1 s
        const locked = await attempt(PASSWORD);
        expect(locked.status).toBe(429);
        expect(locked.body.message).toBe(
          'Too many failed attempts. Please wait 1 second and try again, or reset your password.',
        );
        local.clock.advance(1000);
        expect((await attempt('Wrong-Pass-123')).status).toBe(400); // 6th: 2 s
        local.clock.advance(1000);
        expect((await attempt(PASSWORD)).status).toBe(429); // still locked, and this does not extend it
        local.clock.advance(1000);
        expect((await attempt('Wrong-Pass-123')).status).toBe(400); // 7th: 4 s
        local.clock.advance(4000);
        expect((await attempt(PASSWORD)).status).toBe(200); // success resets the counter
        expect((await attempt('Wrong-Pass-123')).status).toBe(400);
        expect((await attempt(PASSWORD)).status).toBe(200);
      } finally {
        await local.close();
      }
    });

    it('caps the lockout at 15 minutes and forgets failures after 15 quiet minutes', async () => {
      const local = await startServer({ database });
      try {
        const address = 'capped@example.com';
        await registeredClient(local, address);
        const attempt = (password: string) =>
          local.client().post('/public/login', { username: address, password });
        let seconds = 0;
        for (let i = 0; i < 30 && seconds < 900; i++) {
          const response = await attempt('Wrong-Pass-123');
          if (response.status === 429) {
            seconds = Number(/wait (\d+) second/.exec(response.body.message)?.[1]);
            expect(seconds).toBeLessThanOrEqual(900);
            if (seconds < 900) local.clock.advance(seconds * 1000);
          }
        }
        expect(seconds).toBe(900);
        const locked = await attempt(PASSWORD);
        expect(locked.status).toBe(429);
        // Forgot-password still works while locked.
        const forgot = await local.client().post('/public/forgot-password', { username: address });
        expect(forgot).toMatchObject({ status: 200, body: { message: serverMessages.forgotSent } });
        local.clock.advance(15 * 60 * 1000);
        expect((await attempt('Wrong-Pass-123')).status).toBe(400); // counter was reset: 1st failure
        expect((await attempt(PASSWORD)).status).toBe(200);
      } finally {
        await local.close();
      }
    });

    it('locks an unknown address the same way (a lockout reveals nothing)', async () => {
      const address = email('unknown-lock');
      let last = 0;
      for (let i = 0; i < 6; i++)
        last = (
          await server.client().post('/public/login', { username: address, password: PASSWORD })
        ).status;
      expect(last).toBe(429);
    });
  });

  describe('forgot and reset password (REQ-ID-3)', () => {
    async function resetLink(address: string, host?: string) {
      const before = (await server.outbox()).length;
      const response = await server
        .client(host)
        .post('/public/forgot-password', { username: address });
      expect(response).toMatchObject({ status: 200, body: { message: serverMessages.forgotSent } });
      const mail = await server.mail(address, 'reset your password', { after: before });
      const link = /(http\S+\/reset\?\S+)/.exec(mail.text)?.[1] as string;
      return new URL(link);
    }

    it('answers the same for unknown and known addresses, and mails only the known one', async () => {
      const known = email('forgot-known');
      await registeredClient(server, known);
      const unknown = email('forgot-unknown');
      const a = await server.client().post('/public/forgot-password', { username: known });
      const b = await server.client().post('/public/forgot-password', { username: unknown });
      expect(a.status).toBe(b.status);
      expect(a.body).toEqual(b.body);
      await server.mail(known, 'reset your password');
      expect((await server.outbox()).some((m) => m.to === unknown)).toBe(false);
    });

    it('builds the link from the configured origin, never from the Host header', async () => {
      const address = email('host');
      await registeredClient(server, address);
      const link = await resetLink(address, 'evil.example');
      expect(link.origin).toBe('http://app.test');
      expect(link.pathname).toBe('/reset');
      expect(link.searchParams.get('username')).toBe(address);
      expect(link.searchParams.get('id')!.length).toBeGreaterThanOrEqual(43); // ≥ 256 bits, base64url
    });

    it('resets the password, ends every session, mails a notice and does not log in', async () => {
      const address = email('reset');
      const session = await registeredClient(server, address);
      const link = await resetLink(address);
      const before = (await server.outbox()).length;
      const client = server.client();
      const response = await client.post('/public/reset-password', {
        username: link.searchParams.get('username'),
        id: link.searchParams.get('id'),
        password: 'Brand-New-Pass-7',
        confirm_password: 'Brand-New-Pass-7',
      });
      expect(response).toMatchObject({ status: 200, body: { message: serverMessages.resetDone } });
      expect(client.cookies.size).toBe(0);
      expect((await session.get('/api/profile')).status).toBe(401);
      await server.mail(address, 'your password was changed', { after: before });
      expect(
        (await server.client().post('/public/login', { username: address, password: PASSWORD }))
          .status,
      ).toBe(400);
      expect(
        (
          await server
            .client()
            .post('/public/login', { username: address, password: 'Brand-New-Pass-7' })
        ).status,
      ).toBe(200);
    });

    it('works once only, and a newer link replaces an older one', async () => {
      const address = email('reset-once');
      await registeredClient(server, address);
      const old = await resetLink(address);
      const current = await resetLink(address);
      const body = (link: URL, password: string) => ({
        username: link.searchParams.get('username'),
        id: link.searchParams.get('id'),
        password,
        confirm_password: password,
      });
      expect(
        (await server.client().post('/public/reset-password', body(old, 'Older-Link-Pass-1')))
          .status,
      ).toBe(400);
      expect(
        (await server.client().post('/public/reset-password', body(current, 'Newer-Link-Pass-1')))
          .status,
      ).toBe(200);
      const again = await server
        .client()
        .post('/public/reset-password', body(current, 'Third-Time-Pass-1'));
      expect(again).toMatchObject({ status: 400, body: { message: serverMessages.resetFailed } });
    });

    it("refuses a link used with another account's username, changing neither", async () => {
      const a = email('reset-a');
      const b = email('reset-b');
      await registeredClient(server, a);
      await registeredClient(server, b);
      const link = await resetLink(a);
      const response = await server.client().post('/public/reset-password', {
        username: b,
        id: link.searchParams.get('id'),
        password: 'Hijack-Attempt-1',
        confirm_password: 'Hijack-Attempt-1',
      });
      expect(response.status).toBe(400);
      expect(
        (await server.client().post('/public/login', { username: a, password: PASSWORD })).status,
      ).toBe(200);
      expect(
        (await server.client().post('/public/login', { username: b, password: PASSWORD })).status,
      ).toBe(200);
    });

    it('expires after one hour', async () => {
      const local = await startServer({ database });
      try {
        const address = 'reset-expiry@example.com';
        await registeredClient(local, address);
        const before = (await local.outbox()).length;
        await local.client().post('/public/forgot-password', { username: address });
        const mail = await local.mail(address, 'reset your password', { after: before });
        const link = new URL(/(http\S+)/.exec(mail.text)?.[1] as string);
        local.clock.advance(HOUR + 1000);
        const response = await local.client().post('/public/reset-password', {
          username: address,
          id: link.searchParams.get('id'),
          password: 'Too-Late-Pass-1',
          confirm_password: 'Too-Late-Pass-1',
        });
        expect(response).toMatchObject({
          status: 400,
          body: { message: serverMessages.resetFailed },
        });
      } finally {
        await local.close();
      }
    });

    it('requires matching passwords, even when a field is missing', async () => {
      const mismatch = await server.client().post('/public/reset-password', {
        username: 'a@example.com',
        id: 'x'.repeat(43),
        password: 'Brand-New-Pass-7',
        confirm_password: 'Brand-New-Pass-8',
      });
      expect(mismatch).toMatchObject({ status: 400, body: { message: 'passwords must match' } });
      const missing = await server.client().post('/public/reset-password', {
        username: 'a@example.com',
        password: 'Brand-New-Pass-7',
        confirm_password: 'Brand-New-Pass-8',
      });
      expect(missing.status).toBe(400);
      expect(JSON.stringify(missing.body.errors)).toContain('passwords must match');
    });

    it('sends at most 5 reset links per hour with the same answer', async () => {
      const address = email('reset-limit');
      await registeredClient(server, address);
      for (let i = 0; i < 6; i++) {
        const response = await server
          .client()
          .post('/public/forgot-password', { username: address });
        expect(response).toMatchObject({
          status: 200,
          body: { message: serverMessages.forgotSent },
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(
        (await server.outbox()).filter((m) => m.to === address && m.subject.includes('reset')),
      ).toHaveLength(5);
    });
  });
});
