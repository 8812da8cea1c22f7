/**
 * What every request goes through: the session guard of /api/*, the cross-site refusal, JSON-only
 * bodies, the error format and headers, and the per-address rate limit of /public/*.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import {
  databaseKinds,
  registeredClient,
  startServer,
  type Response,
  type TestServer,
} from './harness';

const SESSION_INVALID = {
  message: 'Your session is invalid. Please clear your cookies and login again.',
};

/** Signs of a stack trace or source location leaking into a response. */
const STACK_TRACE = /\bat\s+\S+\s+\(|\.(?:ts|js|mjs):\d+|node_modules|"stack"|Error:/;

describe.each(databaseKinds)('request guards on %s', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ database });
  });
  afterAll(async () => server?.close());

  describe('the session guard of /api/*', () => {
    it.each([
      ['GET', '/api/profile', undefined],
      ['PUT', '/api/answer', { first_name: 'Ada' }],
      ['POST', '/api/submit', {}],
      ['GET', '/api/logout', undefined],
      ['POST', '/api/logout/everywhere', {}],
      ['POST', '/api/web-status', { web_status: 'started' }],
      ['GET', '/api/add-another', undefined],
      ['GET', '/api/tabs', undefined],
    ] as const)('answers 401 to %s %s without a session', async (method, pathname, body) => {
      const response = await server.client().request(method, pathname, body);
      expect(response.status).toBe(401);
      expect(response.body).toEqual(SESSION_INVALID);
    });

    it('answers 401 to a made-up session cookie', async () => {
      const client = server.client();
      client.cookies.set('session', 'A'.repeat(43));
      const response = await client.get('/api/profile');
      expect(response.status).toBe(401);
      expect(response.body).toEqual(SESSION_INVALID);
    });

    it('answers 401 to the cookie of a session that was logged out', async () => {
      const client = await registeredClient(server, 'logged-out@example.com');
      const cookies = new Map(client.cookies);
      const logout = await client.get('/api/logout');
      expect(logout.status).toBe(200);
      expect(logout.body).toEqual({ message: serverMessages.loggedOut });
      const replay = server.client();
      for (const [name, value] of cookies) replay.cookies.set(name, value);
      const response = await replay.get('/api/profile');
      expect(response.status).toBe(401);
      expect(response.body).toEqual(SESSION_INVALID);
    });
  });

  describe('cross-site requests', () => {
    it('refuses a state change marked Sec-Fetch-Site: cross-site and changes nothing', async () => {
      const client = await registeredClient(server, 'cross-site@example.com');
      const response = await client.request(
        'PUT',
        '/api/answer',
        { first_name: 'Forged' },
        { 'sec-fetch-site': 'cross-site' },
      );
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        message: 'This request came from another site and was refused.',
      });
      const status = await client.request(
        'POST',
        '/api/web-status',
        { web_status: 'started' },
        { 'sec-fetch-site': 'cross-site' },
      );
      expect(status.status).toBe(403);
      const profile = await client.get('/api/profile');
      expect(profile.body.answer).toEqual({});
      expect(profile.body.web_status).toEqual([]);
    });

    it('refuses a cross-site login and sets no session cookie', async () => {
      await registeredClient(server, 'cross-login@example.com');
      const client = server.client();
      const response = await client.request(
        'POST',
        '/public/login',
        { username: 'cross-login@example.com', password: 'Correct-Horse-42' },
        { 'sec-fetch-site': 'cross-site' },
      );
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: serverMessages.crossSite });
      expect(client.cookies.size).toBe(0);
    });

    it('refuses a state change from a foreign Origin', async () => {
      const client = await registeredClient(server, 'evil-origin@example.com');
      const response = await client.request(
        'PUT',
        '/api/answer',
        { first_name: 'Forged' },
        { origin: 'https://evil.example' },
      );
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: serverMessages.crossSite });
      expect((await client.get('/api/profile')).body.answer).toEqual({});
    });

    it("allows a state change from the server's own origin", async () => {
      const client = await registeredClient(server, 'own-origin@example.com');
      const response = await client.request(
        'PUT',
        '/api/answer',
        { first_name: 'Ada' },
        { origin: server.url, 'sec-fetch-site': 'same-origin' },
      );
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ message: serverMessages.saved });
      expect((await client.get('/api/profile')).body.answer).toEqual({ first_name: 'Ada' });
    });
  });

  describe('request bodies', () => {
    it('refuses a body sent as text/plain with 415', async () => {
      const client = await registeredClient(server, 'text-plain@example.com');
      const response = await client.request('PUT', '/api/answer', '{"first_name":"Ada"}', {
        'content-type': 'text/plain',
      });
      expect(response.status).toBe(415);
      expect(response.body).toEqual({ message: 'Requests must be sent as JSON.' });
      expect((await client.get('/api/profile')).body.answer).toEqual({});

      const login = await server
        .client()
        .request('POST', '/public/login', 'username=a&password=b', {
          'content-type': 'text/plain',
        });
      expect(login.status).toBe(415);
      expect(login.body).toEqual({ message: serverMessages.unsupportedType });
    });

    it('refuses malformed JSON with 400', async () => {
      const client = await registeredClient(server, 'malformed@example.com');
      const response = await client.request('PUT', '/api/answer', '{"first_name": "Ada"');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: 'The request could not be understood.' });
      const login = await server.client().request('POST', '/public/login', '{username:');
      expect(login.status).toBe(400);
      expect(login.body).toEqual({ message: serverMessages.badRequest });
    });
  });

  describe('responses', () => {
    it('answers 404 with a message to an unknown route', async () => {
      for (const [method, pathname] of [
        ['GET', '/api/nothing-here'],
        ['POST', '/public/nothing-here'],
        ['GET', '/no/such/page.php'],
      ] as const) {
        const response = await server.client().request(method, pathname);
        expect(response.status, `${method} ${pathname}`).toBe(404);
        expect(response.body).toEqual({ message: 'Not found.' });
      }
    });

    it('sends nosniff and no-store on every response, and no stack trace in any error', async () => {
      const client = await registeredClient(server, 'headers@example.com');
      const anonymous = server.client();
      const responses: [string, Response][] = [
        ['healthz', await anonymous.get('/healthz')],
        ['profile', await client.get('/api/profile')],
        ['saved', await client.put('/api/answer', { first_name: 'Ada' })],
        ['no content', await client.put('/api/last-page', { last_page: '/about' })],
        ['unknown keys', await client.put('/api/answer', { nope: 'x' })],
        ['bad json', await client.request('PUT', '/api/answer', '{')],
        ['submit invalid', await client.post('/api/submit')],
        ['not found', await anonymous.get('/nothing')],
        ['no session', await anonymous.get('/api/profile')],
        [
          'cross site',
          await client.request('POST', '/api/submit', {}, { origin: 'https://evil.example' }),
        ],
        [
          'text/plain',
          await client.request('PUT', '/api/answer', 'x', { 'content-type': 'text/plain' }),
        ],
        [
          'too large',
          await client.request(
            'PUT',
            '/api/answer',
            JSON.stringify({ city: 'x'.repeat(1024 * 1024 + 1) }),
          ),
        ],
        [
          'login failed',
          await anonymous.post('/public/login', {
            username: 'x@example.com',
            password: 'wrong-password-123',
          }),
        ],
        ['bad token', await anonymous.get('/public/tmp?token=short')],
      ];
      expect(new Set(responses.map(([, r]) => r.status))).toEqual(
        new Set([200, 204, 400, 401, 403, 404, 413, 415, 422]),
      );
      for (const [label, response] of responses) {
        expect(response.headers.get('x-content-type-options'), label).toBe('nosniff');
        expect(response.headers.get('cache-control'), label).toBe('no-store');
        if (response.status >= 400) {
          expect(response.headers.get('content-type'), label).toMatch(/^application\/json/);
          expect(typeof response.body.message, label).toBe('string');
          expect(response.text, label).not.toMatch(STACK_TRACE);
        }
      }
    });
  });
});

describe.each(databaseKinds)('the per-address rate limit of /public/* on %s', (database) => {
  // Its own server: a limit of 3 per minute.
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ database, config: { publicRateLimit: 3 } });
  });
  afterAll(async () => server?.close());

  it('answers 429 to the 4th request within a minute', async () => {
    const client = server.client();
    for (let attempt = 1; attempt <= 3; attempt++) {
      const response = await client.post('/public/forgot-password', {
        username: `someone-${attempt}@example.com`,
      });
      expect(response.status, `attempt ${attempt}`).toBe(200);
      expect(response.body).toEqual({ message: serverMessages.forgotSent });
    }
    const limited = await server
      .client()
      .post('/public/forgot-password', { username: 'someone-4@example.com' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      message: 'Too many requests. Please wait a moment and try again.',
    });
    expect(limited.headers.get('x-content-type-options')).toBe('nosniff');
  });

  describe('bodies that are not objects', () => {
    it('answer 400, never 500, on every account call and save', async () => {
      const server = await startServer();
      try {
        for (const path of [
          '/public/signup',
          '/public/confirm',
          '/public/resend-confirm',
          '/public/login',
          '/public/forgot-password',
          '/public/reset-password',
          '/public/tmp',
        ]) {
          for (const body of ['null', '[]', '"text"', '42']) {
            const response = await server.client().request('POST', path, body);
            expect(response.status, `${path} with ${body}`).toBe(400);
            expect(typeof response.body.message).toBe('string');
          }
        }
      } finally {
        await server.close();
      }
    });
  });
});
