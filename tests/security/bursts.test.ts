/**
 * D67 and D68: counters, single-use secrets and sign-up under parallel bursts, as an attacker
 * sends them (SECURITY.md REQ-ID-1 to REQ-ID-3). Each burst is released at once with Promise.all and
 * passes the slow path (Argon2) in the middle; the outcome is counted, not sampled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import {
  CODE_MAX_WRONG_GUESSES,
  HARD_STOP_AFTER,
  LOCKOUT_AFTER,
} from '../../server/account/accounts';
import { ACCOUNT_LIMITS } from '../../server/account/limits';
import {
  codeIn,
  databaseKinds,
  PASSWORD,
  registeredClient,
  startServer,
  type Response,
  type TestServer,
} from '../server/harness';
import { mailCount, resetLink, settle } from './helpers';

/** Requests released together in each burst. */
const BURST = 50;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const STAFF_KEY = 'burst-staff-key-0123456789abcdef0123456789';

const statusCounts = (responses: readonly Response[]) => {
  const counts: Record<number, number> = {};
  for (const response of responses) counts[response.status] = (counts[response.status] ?? 0) + 1;
  return counts;
};

describe.each(databaseKinds)('bursts on %s', (database) => {
  let server: TestServer;
  let n = 0;
  const email = (label: string) => `${label}.${++n}@example.com`;
  const post = (path: string, body: unknown) => server.client().post(path, body);
  const burst = (send: (i: number) => Promise<Response>) =>
    Promise.all(Array.from({ length: BURST }, (_, i) => send(i)));
  const login = (username: string, password = PASSWORD) =>
    post('/public/login', { username, password });

  beforeAll(async () => {
    server = await startServer({
      database,
      config: { publicRateLimit: 100_000 },
      env: { STAFF_API_KEYS: `northfield=${STAFF_KEY}` },
    });
  });
  afterAll(async () => server?.close());

  describe('D67 login failures', () => {
    it(`D67 ${BURST} parallel wrong passwords: exactly ${LOCKOUT_AFTER} are checked, the rest locked out, and the right password is refused afterwards`, async () => {
      const address = email('login-burst');
      await registeredClient(server, address);
      const responses = await burst(() => login(address, 'Wrong-Pass-123'));
      expect(statusCounts(responses)).toEqual({ 400: LOCKOUT_AFTER, 429: BURST - LOCKOUT_AFTER });
      const right = await login(address);
      expect(right).toMatchObject({ status: 429, body: { message: serverMessages.lockedOut(1) } });
      // The lockout of the 5th failure (1 s) passes; the next failure locks for 2 s.
      server.clock.advance(1000);
      expect((await login(address)).status).toBe(200);
    });

    it(`D67 ${BURST} parallel wrong passwords against an unknown address lock it the same way`, async () => {
      const address = email('login-burst-nobody');
      const responses = await burst(() => login(address, 'Wrong-Pass-123'));
      expect(statusCounts(responses)).toEqual({ 400: LOCKOUT_AFTER, 429: BURST - LOCKOUT_AFTER });
    });

    it(`D67 the hard stop holds under a burst: after ${HARD_STOP_AFTER - 1} failures, ${BURST} parallel tries get exactly one check`, async () => {
      const address = email('hard-stop-burst');
      await registeredClient(server, address);
      for (let i = 0; i < HARD_STOP_AFTER - 1; i++) {
        expect((await login(address, 'Wrong-Pass-123')).status).toBe(400);
        server.clock.advance(16 * MINUTE);
      }
      const responses = await burst(() => login(address, 'Wrong-Pass-123'));
      expect(statusCounts(responses)).toEqual({ 400: 1, 429: BURST - 1 });
      expect(responses.filter((r) => r.body.message === serverMessages.loginStopped)).toHaveLength(
        BURST - 1,
      );
      server.clock.advance(16 * MINUTE);
      expect(await login(address)).toMatchObject({
        status: 429,
        body: { message: serverMessages.loginStopped },
      });
    }, 60_000);
  });

  describe('D67 confirmation codes', () => {
    async function signedUp() {
      const address = email('code-burst');
      const before = (await server.outbox()).length;
      await post('/public/signup', { username: address, password: PASSWORD });
      return {
        address,
        code: codeIn(await server.mail(address, 'confirmation code', { after: before })),
      };
    }
    const wrong = (code: string, i: number) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

    it(`D67 ${BURST} parallel wrong guesses void the code: an hour later the right code still fails`, async () => {
      const { address, code } = await signedUp();
      const responses = await burst((i) =>
        post('/public/confirm', { username: address, code: wrong(code, i) }),
      );
      expect(statusCounts(responses)).toEqual({ 400: BURST });
      // Past the 15-tries-an-hour limit: only the 10-guess cap can refuse the right code now.
      server.clock.advance(HOUR + 1000);
      expect(ACCOUNT_LIMITS.confirm).toBeGreaterThan(CODE_MAX_WRONG_GUESSES);
      expect(await post('/public/confirm', { username: address, code })).toMatchObject({
        status: 400,
        body: { message: serverMessages.confirmFailed },
      });
    });

    it(`D67 ${BURST} parallel confirmations with the right code: exactly one succeeds`, async () => {
      const { address, code } = await signedUp();
      const responses = await burst(() => post('/public/confirm', { username: address, code }));
      expect(statusCounts(responses)).toEqual({ 200: 1, 400: BURST - 1 });
      expect((await login(address)).status).toBe(200);
    });

    it(`D67 ${BURST} parallel resends: ${ACCOUNT_LIMITS.code} codes an hour in all (the sign-up's included)`, async () => {
      const { address } = await signedUp();
      const responses = await burst(() => post('/public/resend-confirm', { username: address }));
      expect(statusCounts(responses)).toEqual({ 200: BURST });
      expect(new Set(responses.map((r) => r.text)).size).toBe(1);
      await settle();
      expect(await mailCount(server, address, 'confirmation code')).toBe(ACCOUNT_LIMITS.code);
    });
  });

  describe('D67 reset links', () => {
    it(`D67 ${BURST} parallel forgot-password requests: exactly ${ACCOUNT_LIMITS.resetRequest} links an hour`, async () => {
      const address = email('forgot-burst');
      await registeredClient(server, address);
      const responses = await burst(() => post('/public/forgot-password', { username: address }));
      expect(statusCounts(responses)).toEqual({ 200: BURST });
      await settle();
      expect(await mailCount(server, address, 'reset your password')).toBe(
        ACCOUNT_LIMITS.resetRequest,
      );
    });

    it(`D67 REQ-ID-3 ${BURST} parallel resets with one link: exactly one succeeds, and its password is the one that logs in`, async () => {
      const address = email('reset-burst');
      await registeredClient(server, address);
      const link = await resetLink(server, address);
      const passwordOf = (i: number) => `Brand-New-Pass-${i}!`;
      const responses = await burst((i) =>
        post('/public/reset-password', {
          username: address,
          id: link.searchParams.get('id'),
          password: passwordOf(i),
          confirm_password: passwordOf(i),
        }),
      );
      expect(statusCounts(responses)).toEqual({ 200: 1, 400: BURST - 1 });
      const winner = responses.findIndex((r) => r.status === 200);
      for (const r of responses.filter((r) => r.status === 400))
        expect(r.body.message).toBe(serverMessages.resetFailed);
      expect((await login(address, passwordOf(winner))).status).toBe(200);
      expect((await login(address, passwordOf((winner + 1) % BURST))).status).toBe(400);
      expect((await login(address)).status).toBe(400);
    });
  });

  describe('D67 service-token revocation', () => {
    it(`D67 ${BURST} parallel revocations of one link store it once; ${BURST} parallel reads after the revocation are all refused`, async () => {
      const address = email('service-burst');
      const applicant = await registeredClient(server, address);
      await applicant.put('/api/answer', { first_name: 'Ada' });
      const staff = (method: string, path: string, body?: unknown) =>
        server.client().request(method, path, body, { authorization: `Bearer ${STAFF_KEY}` });
      const minted = await staff('POST', '/service/tokens', { email: address });
      const token = new URL(minted.body.url as string).searchParams.get('service_token') as string;
      const read = () => server.client().get(`/service/tmp-pdf?service_token=${token}`);
      // Reads and revocations released together: every answer is a 200 with the data or the 401.
      const mixed = await Promise.all([
        ...Array.from({ length: BURST }, read),
        ...Array.from({ length: BURST }, () =>
          staff('DELETE', `/service/tokens/${minted.body.id as string}`),
        ),
      ]);
      for (const r of mixed.slice(0, BURST)) {
        expect([200, 401]).toContain(r.status);
        if (r.status === 200) expect(r.body.answer.first_name).toBe('Ada');
      }
      expect(statusCounts(mixed.slice(BURST))).toEqual({ 200: BURST });
      const after = await burst(read);
      expect(statusCounts(after)).toEqual({ 401: BURST });
    });
  });

  describe('D68 no account changes hands before confirmation', () => {
    it('D68 a second sign-up for an unconfirmed address changes nothing: the first password stands, the old code works, the owner is told', async () => {
      const address = email('pending');
      const before = (await server.outbox()).length;
      await post('/public/signup', { username: address, password: PASSWORD });
      const code = codeIn(await server.mail(address, 'confirmation code', { after: before }));
      const again = await post('/public/signup', {
        username: address,
        password: 'Attacker-Pass-99!',
      });
      const fresh = await post('/public/signup', { username: email('fresh'), password: PASSWORD });
      expect(again.status).toBe(fresh.status);
      expect(again.text).toBe(fresh.text);
      await server.mail(address, 'someone tried to create an account');
      expect(await mailCount(server, address, 'confirmation code')).toBe(1);
      expect((await post('/public/confirm', { username: address, code })).status).toBe(200);
      expect((await login(address, 'Attacker-Pass-99!')).status).toBe(400);
      expect((await login(address)).status).toBe(200);
    });

    it(`D68 ${BURST} parallel sign-ups for one new address with different passwords: one account, one code, exactly one password logs in`, async () => {
      const address = email('signup-race');
      const passwordOf = (i: number) => `Racing-Pass-${i}!`;
      const before = (await server.outbox()).length;
      const responses = await burst((i) =>
        post('/public/signup', { username: address, password: passwordOf(i) }),
      );
      expect(statusCounts(responses)).toEqual({ 200: BURST });
      expect(new Set(responses.map((r) => r.text)).size).toBe(1);
      const code = codeIn(await server.mail(address, 'confirmation code', { after: before }));
      await settle();
      expect(await mailCount(server, address, 'confirmation code')).toBe(1);
      expect((await post('/public/confirm', { username: address, code })).status).toBe(200);
      const logins = [];
      for (let i = 0; i < BURST; i++) {
        logins.push((await login(address, passwordOf(i))).status);
        // Past each lockout: every password gets its own check.
        server.clock.advance(16 * MINUTE);
      }
      expect(logins.filter((s) => s === 200)).toHaveLength(1);
      expect(logins.filter((s) => s === 400)).toHaveLength(BURST - 1);
    }, 60_000);

    it('D68 two parallel sign-ups, one of them the owner: the code mailed confirms the one account, the other password never logs in', async () => {
      const address = email('signup-pair');
      const before = (await server.outbox()).length;
      const [a, b] = await Promise.all([
        post('/public/signup', { username: address, password: PASSWORD }),
        post('/public/signup', { username: address, password: 'Attacker-Pass-99!' }),
      ]);
      expect(a.text).toBe(b.text);
      const code = codeIn(await server.mail(address, 'confirmation code', { after: before }));
      expect((await post('/public/confirm', { username: address, code })).status).toBe(200);
      const owner = await login(address);
      server.clock.advance(16 * MINUTE);
      const attacker = await login(address, 'Attacker-Pass-99!');
      expect([owner.status, attacker.status].sort()).toEqual([200, 400]);
    });

    it('D68 once the code has lapsed (24 h), a new sign-up starts the unconfirmed account afresh with its own password and code', async () => {
      const address = email('lapsed');
      await post('/public/signup', { username: address, password: 'First-Pass-123!' });
      await server.mail(address, 'confirmation code');
      server.clock.advance(24 * HOUR + 1000);
      const before = (await server.outbox()).length;
      await post('/public/signup', { username: address, password: PASSWORD });
      const code = codeIn(await server.mail(address, 'confirmation code', { after: before }));
      expect((await post('/public/confirm', { username: address, code })).status).toBe(200);
      expect((await login(address, 'First-Pass-123!')).status).toBe(400);
      expect((await login(address)).status).toBe(200);
    });
  });
});
