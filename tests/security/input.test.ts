/**
 * SECURITY.md section 7, "Authorization, tenancy, input" (7.17, 7.18, 7.19, 7.22, 7.23), against the
 * real server. The server runs in this process, so prototype pollution would be visible here.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import { DEFAULT_JSON_LIMITS } from '../../server/security/jsonBody';
import { parseBoundedJson } from '../../server/security/json';
import { validApplication } from '../definitions/fixtures';
import {
  databaseKinds,
  PASSWORD,
  registeredClient,
  startServer,
  type Client,
  type TestServer,
} from '../server/harness';

const SOUTH = 'south.test';

/** Every /api call of SPEC 7.2 that exists, with a body that would be valid. */
const API_CALLS: [string, string, unknown][] = [
  ['GET', '/api/profile', undefined],
  ['POST', '/api/web-status', { web_status: 'started' }],
  ['PUT', '/api/last-page', { last_page: '/education' }],
  ['PUT', '/api/answer', { first_name: 'Intruder' }],
  ['POST', '/api/validations', {}],
  ['POST', '/api/submit', {}],
  ['GET', '/api/add-another', undefined],
  ['PUT', '/api/add-another', { buttonId: 'activity', numComponents: 2 }],
  ['GET', '/api/tabs', undefined],
  ['GET', '/api/logout', undefined],
  ['POST', '/api/logout', {}],
];

const polluted = () =>
  [
    ({} as Record<string, unknown>).isAdmin,
    ({} as Record<string, unknown>).x,
    ({} as Record<string, unknown>).y,
  ].every((v) => v === undefined);

describe.each(databaseKinds)('SECURITY.md 7 authorization, tenancy and input on %s', (database) => {
  let server: TestServer;
  let n = 0;
  const email = (label: string) => `${label}.${++n}@example.com`;

  beforeAll(async () => {
    server = await startServer({
      database,
      config: { publicRateLimit: 100_000 },
      tenants: [
        {
          id: 'southfield',
          name: 'Southfield',
          definitionId: 'northfield-undergraduate',
          hosts: [SOUTH],
        },
      ],
    });
  });
  afterAll(async () => server?.close());

  describe('7.17 IDOR and tenancy', () => {
    it('7.17 every /api call exists and answers 401 without a session', async () => {
      for (const [method, url] of API_CALLS) {
        expect(server.built.app.hasRoute({ method: method as 'GET', url }), url).toBe(true);
        const response = await server.client().request(method, url, undefined);
        expect(response.status, `${method} ${url}`).toBe(401);
      }
    });

    it('7.17 a session of tenant X on the host of tenant Y is 401 on every /api call, changes nothing, and stays valid at home', async () => {
      const north = await registeredClient(server, email('tenant-x'));
      expect((await north.put('/api/answer', { first_name: 'Home' })).status).toBe(200);
      const intruder = server.client(SOUTH);
      intruder.cookies.set('session', north.cookies.get('session') as string);
      for (const [method, url, body] of API_CALLS) {
        const response = await intruder.request(method, url, body);
        expect(response.status, `${method} ${url} on the other tenant`).toBe(401);
      }
      const home = await north.get('/api/profile');
      expect(home.status).toBe(200);
      expect(home.body.answer.first_name).toBe('Home');
      expect(home.body.last_page ?? null).not.toBe('/education');
    });

    it("7.17 applicant A never reads or changes applicant B's data: every call is scoped to the session's own user", async () => {
      const a = await registeredClient(server, email('applicant-a'));
      const b = await registeredClient(server, email('applicant-b'));
      expect((await b.put('/api/answer', { first_name: 'Bea', last_name: 'B' })).status).toBe(200);
      expect(
        (await b.put('/api/add-another', { buttonId: 'activity', numComponents: 3 })).status,
      ).toBe(204);
      for (const [method, url, body] of API_CALLS.filter(([, u]) => !u.includes('logout')))
        await a.request(method, url, body);
      const bProfile = await b.get('/api/profile');
      expect(bProfile.body.answer).toMatchObject({ first_name: 'Bea', last_name: 'B' });
      expect((await b.get('/api/add-another')).body).toMatchObject({ activity: 3 });
      const aProfile = await a.get('/api/profile');
      expect(aProfile.body.answer.last_name).toBeUndefined();
      expect(aProfile.body.username).not.toBe(bProfile.body.username);
      // A query parameter naming another user changes nothing: nothing is addressed by id.
      const byId = await a.request(
        'GET',
        `/api/profile?user=${encodeURIComponent(bProfile.body.username)}`,
      );
      expect(byId.body.username).toBe(aProfile.body.username);
    });

    it("7.17 temporary answers of tenant X are unknown on tenant Y's host", async () => {
      const issued = await server.client().post('/public/tmp', { answers: { first_name: 'Temp' } });
      const token = issued.body.token as string;
      expect((await server.client().get(`/public/tmp?token=${token}`)).status).toBe(200);
      expect((await server.client(SOUTH).get(`/public/tmp?token=${token}`)).status).toBe(404);
    });
  });

  describe('7.18 mass assignment', () => {
    it('7.18 PUT /api/answer with status, submittedAt, tenantId, userId, role or feePaid is 400 and changes nothing', async () => {
      const user = await registeredClient(server, email('mass'));
      const before = await user.get('/api/profile');
      for (const extra of [
        { status: 'submitted' },
        { submittedAt: '2026-01-01T00:00:00Z' },
        { tenantId: 'southfield' },
        { userId: '00000000-0000-0000-0000-000000000000' },
        { role: 'staff' },
        { feePaid: true },
        { web_status: ['submitted'] },
        { username: 'other@example.com' },
      ]) {
        const response = await user.put('/api/answer', { first_name: 'Sneaky', ...extra });
        expect(response.status, JSON.stringify(extra)).toBe(400);
        expect(response.body.message).toContain(Object.keys(extra)[0]);
      }
      const after = await user.get('/api/profile');
      expect(after.body).toEqual(before.body);
    });

    it('7.18 extra fields on account calls are dropped (allow-listed DTOs): sign-up with confirmedAt or another tenant stays unconfirmed here', async () => {
      const address = email('mass-signup');
      const response = await server.client().post('/public/signup', {
        username: address,
        password: PASSWORD,
        confirmedAt: '2026-01-01T00:00:00Z',
        confirmed: true,
        tenantId: 'southfield',
        role: 'admin',
      });
      expect(response.status).toBe(200);
      // The account is made by the sign-up's job, after the answer (D193).
      await server.settled();
      const login = await server
        .client()
        .post('/public/login', { username: address, password: PASSWORD });
      expect(login.status).toBe(403);
      expect(login.body.code).toBe('UserNotConfirmed');
      expect(
        (
          await server
            .client(SOUTH)
            .post('/public/login', { username: address, password: PASSWORD })
        ).status,
      ).toBe(400);
    });
  });

  describe('7.19 prototype pollution and parameter pollution', () => {
    let user: Client;
    beforeAll(async () => {
      user = await registeredClient(server, email('proto'));
    });

    it('7.19 __proto__ and constructor.prototype, top level and nested, are 400 on saves and account calls; no object is polluted', async () => {
      const bodies = [
        '{"__proto__":{"isAdmin":true}}',
        '{"first_name":"a","nested":{"__proto__":{"isAdmin":true}}}',
        '{"constructor":{"prototype":{"isAdmin":true}}}',
        '{"first_name":"a","deep":[{"constructor":{"prototype":{"isAdmin":true}}}]}',
      ];
      for (const url of ['/api/answer', '/public/login', '/public/tmp']) {
        for (const body of bodies) {
          const response = await user.request(url === '/api/answer' ? 'PUT' : 'POST', url, body);
          expect(response.status, `${url} ${body}`).toBe(400);
        }
      }
      expect(polluted()).toBe(true);
      expect((await user.get('/api/profile')).body.answer.isAdmin).toBeUndefined();
    });

    it('7.19 ?__proto__[x]=1 in the query string is ignored, never a crash or a polluted object', async () => {
      for (const query of [
        '__proto__[x]=1',
        '__proto__.x=1',
        'constructor[prototype][y]=1',
        '__proto__=1',
      ]) {
        const profile = await user.get(`/api/profile?${query}`);
        expect(profile.status, query).toBe(200);
        const tmp = await user.get(`/public/tmp?${query}&token=${'a'.repeat(40)}`);
        expect([400, 404], query).toContain(tmp.status);
      }
      expect(polluted()).toBe(true);
    });

    it('7.19 duplicate keys ({"ssn":"1","ssn":"2"}), at any depth, are 400; the stored value never differs from the checked one', async () => {
      for (const body of [
        '{"ssn":"123-45-6789","ssn":"2"}',
        '{"first_name":"A","first_name":"B"}',
        '{"first_name":"A","\\u0066irst_name":"B"}',
      ]) {
        const response = await user.request('PUT', '/api/answer', body);
        expect(response.status, body).toBe(400);
      }
      const login = await server
        .client()
        .request(
          'POST',
          '/public/login',
          '{"username":"a@b.co","username":"c@d.co","password":"x"}',
        );
      expect(login.status).toBe(400);
      expect((await user.get('/api/profile')).body.answer.first_name).toBeUndefined();
      // The same key in sibling objects, and keys inside string values, are not duplicates.
      const read = (text: string) => () =>
        parseBoundedJson(text, { ...DEFAULT_JSON_LIMITS, depth: 3 });
      expect(read('{"a":{"k":1},"b":{"k":2},"c":[{"k":1},{"k":2}]}')).not.toThrow();
      expect(read('{"a":"\\":{\\"a","b":"}{]["}')).not.toThrow();
      expect(read('{"a":{"k":1,"k":2}}')).toThrow();
    });
  });

  describe('7.21 anonymous temporary-answer token', () => {
    it('7.21 1,000 random tokens all get the same 404; a valid token only reads; an expired one is 404', async () => {
      const client = server.client();
      const texts = new Set<string>();
      for (let i = 0; i < 1000; i++) {
        const token = randomBytes(32).toString('base64url');
        const response = await client.get(`/public/tmp?token=${token}`);
        expect(response.status).toBe(404);
        texts.add(response.text);
      }
      expect(texts.size).toBe(1);
      const issued = await client.post('/public/tmp', { answers: { first_name: 'Draft' } });
      const token = issued.body.token as string;
      for (const method of ['PUT', 'PATCH', 'DELETE'])
        expect([404, 405]).toContain(
          (await client.request(method, `/public/tmp?token=${token}`, { answers: {} })).status,
        );
      expect((await client.get(`/public/tmp?token=${token}`)).body.answers).toEqual({
        first_name: 'Draft',
      });
      server.clock.advance(8 * 24 * 60 * 60 * 1000);
      expect((await client.get(`/public/tmp?token=${token}`)).status).toBe(404);
    }, 60_000);

    it('7.21 guessing is rate limited per address: 429 after the limit', async () => {
      const limited = await startServer({ database, config: { publicRateLimit: 5 } });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 7; i++)
          statuses.push(
            (await limited.client().get(`/public/tmp?token=${'b'.repeat(30)}${i}`)).status,
          );
        expect(statuses).toEqual([404, 404, 404, 404, 404, 429, 429]);
      } finally {
        await limited.close();
      }
    });
  });

  describe('7.22 PII validation and leakage', () => {
    async function submitWith(overrides: Record<string, string>) {
      const user = await registeredClient(server, email('pii'));
      expect((await user.put('/api/answer', { ...validApplication, ...overrides })).status).toBe(
        200,
      );
      return user.post('/api/submit');
    }

    it('7.22 123-45-6789 is accepted; area 000/666/9xx, group 00 and serial 0000 are refused at submit without echoing the number', async () => {
      expect((await submitWith({})).status).toBe(200);
      for (const ssn of [
        '000-12-3456',
        '666-12-3456',
        '912-34-5678',
        '123-00-4567',
        '123-45-0000',
      ]) {
        const response = await submitWith({ ssn });
        expect(response.status, ssn).toBe(422);
        expect(Object.keys(response.body.errors), ssn).toContain('ssn');
        expect(response.text, ssn).not.toContain(ssn);
      }
    });

    it('7.22 birth date 2031-02-30, a future date or an absurd age is refused; a date round-trips without a timezone shift', async () => {
      for (const birth_date of ['2030-01-01', '1850-06-01']) {
        const response = await submitWith({ birth_date });
        expect(response.status, birth_date).toBe(422);
        expect(Object.keys(response.body.errors), birth_date).toContain('birth_date');
      }
      const user = await registeredClient(server, email('date'));
      // A day that does not exist is not a date: the save itself refuses it (D128).
      const impossible = await user.put('/api/answer', { birth_date: '2031-02-30' });
      expect(impossible).toMatchObject({
        status: 400,
        body: { message: serverMessages.badValues(['birth_date']) },
      });
      expect((await user.get('/api/profile')).body.answer.birth_date ?? '').toBe('');
      await user.put('/api/answer', { birth_date: '2008-02-29' });
      expect((await user.get('/api/profile')).body.answer.birth_date).toBe('2008-02-29');
    });
  });

  describe('7.23 size and shape limits', () => {
    it('7.23 a JSON body of 1 MiB + 1 byte is 413; 10,000-deep nesting is 400 without a crash', async () => {
      const user = await registeredClient(server, email('size'));
      const filler = 'x'.repeat(1024 * 1024 + 1 - '{"first_name":""}'.length);
      const big = await user.request('PUT', '/api/answer', `{"first_name":"${filler}"}`);
      expect(big).toMatchObject({ status: 413, body: { message: serverMessages.tooLarge } });
      const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
      const nested = await user.request('PUT', '/api/answer', deep);
      expect(nested.status).toBe(400);
      const arrays = await user.request(
        'PUT',
        '/api/answer',
        `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
      );
      expect(arrays.status).toBe(400);
      expect((await user.get('/api/profile')).status).toBe(200);
    });

    it('7.23 an essay at the 7,000-character limit with emoji, RTL, combining and zero-width characters, <, &, tabs and double spaces is byte-identical after save and load', async () => {
      const user = await registeredClient(server, email('essay'));
      const piece =
        'Ünïcödé 👩🏽‍🎓 مرحبا بالعالم e\u0301 \u200b\u200d <b>&amp;</b>\t\ttab  two  spaces\r\n';
      let essay = '';
      // The limit counts UTF-16 code units, as the browser's maxlength does.
      while (essay.length + piece.length <= 7000) essay += piece;
      essay = essay.padEnd(7000, '.');
      const key = 'conviction_comment';
      const saved = await user.put('/api/answer', { [key]: essay });
      if (saved.status === 400 && String(saved.body.message).includes(key))
        throw new Error(
          `${key} refused: ${String(saved.body.message)} ${JSON.stringify(saved.body.errors)}`,
        );
      expect(saved.status).toBe(200);
      const loaded = (await user.get('/api/profile')).body.answer[key] as string;
      expect(Buffer.from(loaded, 'utf8').equals(Buffer.from(essay, 'utf8'))).toBe(true);
    });
  });
});
