/**
 * SECURITY.md section 7, "Sessions, CSRF, 401" (7.11, 7.12, 7.16) and the response headers of ASVS
 * 3.4 / 14.3 (D50), against the real server. The browser side of the policy is tests/e2e/csp.test.ts.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import { CSP_NONCE_PLACEHOLDER } from '../../server/security/csp';
import { IMMUTABLE_CACHE } from '../../server/security/headers';
import {
  databaseKinds,
  PASSWORD,
  registeredClient,
  startServer,
  type Response,
  type TestServer,
} from '../server/harness';
import { clientFixture, expectBaseHeaders } from '../server/headerChecks';

const MINUTE = 60 * 1000;
const EVIL = 'https://evil.example';

describe.each(databaseKinds)('SECURITY.md 7 sessions and headers on %s', (database) => {
  let server: TestServer;
  let clientDir: string;
  let n = 0;
  const email = (label: string) => `${label}.${++n}@example.com`;

  beforeAll(async () => {
    clientDir = await clientFixture();
    server = await startServer({ database, config: { clientDir } });
  });
  afterAll(async () => {
    await server?.close();
    await rm(clientDir, { recursive: true, force: true });
  });

  describe('response headers (ASVS 3.4, 14.3.2)', () => {
    it('sends the strict CSP, nosniff, no-referrer and frame denial on every kind of response', async () => {
      const user = await registeredClient(server, email('headers'));
      const anonymous = server.client();
      const responses: [string, Response][] = [
        ['index.html', await anonymous.get('/about')],
        ['hashed asset', await anonymous.get('/assets/index-AbC123.js')],
        ['missing asset', await anonymous.get('/assets/gone-123.js')],
        ['/healthz', await anonymous.get('/healthz')],
        ['API 200', await user.get('/api/profile')],
        ['API 401', await anonymous.get('/api/profile')],
        ['API 400', await user.put('/api/answer', { nope: 1 })],
        ['public 200', await anonymous.post('/public/forgot-password', { username: 'a@b.co' })],
        ['cross-site 403', await anonymous.request('POST', '/public/login', {}, { origin: EVIL })],
        ['unknown API 404', await anonymous.get('/api/nothing-here')],
      ];
      for (const [label, response] of responses) expectBaseHeaders(response, label);
    });

    it('gives index.html a fresh nonce per response, in the header and the page alike', async () => {
      const a = await server.client().get('/education');
      const b = await server.client().get('/education');
      const nonceA = /'nonce-([^']+)'/.exec(a.headers.get('content-security-policy') ?? '')?.[1];
      const nonceB = /'nonce-([^']+)'/.exec(b.headers.get('content-security-policy') ?? '')?.[1];
      expect(nonceA).toBeTruthy();
      expect(nonceA).not.toBe(nonceB);
      expect(a.text).toContain(`nonce="${nonceA}"`);
      expect(a.text).not.toContain(CSP_NONCE_PLACEHOLDER);
      expect(a.headers.get('content-type')).toMatch(/^text\/html/);
      // The raw file is not served around the nonce.
      expect((await server.client().get('/index.html')).text).not.toContain(CSP_NONCE_PLACEHOLDER);
    });

    it('sends Cache-Control: no-store on everything carrying applicant data, immutable only on hashed assets', async () => {
      const user = await registeredClient(server, email('cache'));
      for (const [label, response] of [
        ['profile', await user.get('/api/profile')],
        ['save', await user.put('/api/answer', { first_name: 'Maya' })],
        ['tabs', await user.get('/api/tabs')],
        ['public', await user.post('/public/forgot-password', { username: 'a@b.co' })],
        ['401', await server.client().get('/api/profile')],
        ['index.html', await user.get('/about')],
      ] as const)
        expect(response.headers.get('cache-control'), label).toBe('no-store');
      const asset = await server.client().get('/assets/index-AbC123.js');
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe(IMMUTABLE_CACHE);
      expect((await server.client().get('/assets/gone-123.js')).headers.get('cache-control')).toBe(
        'no-store',
      );
    });

    it('marks the reset page (token in the address) no-referrer, no-store and noindex', async () => {
      const response = await server.client().get('/reset?username=a%40example.com&id=secret-token');
      expect(response.status).toBe(200);
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-robots-tag')).toBe('noindex');
      const token = await server.client().get('/about?token=abc');
      expect(token.headers.get('x-robots-tag')).toBe('noindex');
    });

    it('sends HSTS only on requests that arrived over https, trusting X-Forwarded-Proto only behind a trusted proxy', async () => {
      expect((await server.client().get('/healthz')).headers.get('strict-transport-security')).toBe(
        null,
      );
      const spoofed = await server
        .client()
        .request('GET', '/healthz', undefined, { 'x-forwarded-proto': 'https' });
      expect(spoofed.headers.get('strict-transport-security')).toBe(null);

      const proxied = await startServer({
        database,
        env: { TRUST_PROXY: '127.0.0.1', PUBLIC_ORIGIN: 'https://apply.example.edu' },
      });
      const off = await startServer({
        database,
        env: { TRUST_PROXY: '127.0.0.1', HSTS_MAX_AGE: '0' },
      });
      try {
        const https = await proxied
          .client()
          .request('GET', '/healthz', undefined, { 'x-forwarded-proto': 'https' });
        expect(https.headers.get('strict-transport-security')).toBe(
          'max-age=31536000; includeSubDomains',
        );
        expect(https.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
        const http = await proxied
          .client()
          .request('GET', '/healthz', undefined, { 'x-forwarded-proto': 'http' });
        expect(http.headers.get('strict-transport-security')).toBe(null);
        const disabled = await off
          .client()
          .request('GET', '/healthz', undefined, { 'x-forwarded-proto': 'https' });
        expect(disabled.headers.get('strict-transport-security')).toBe(null);
      } finally {
        await proxied.close();
        await off.close();
      }
    });
  });

  describe('7.11 cookie hygiene', () => {
    it('7.11 over https the session cookie is __Host-, Secure, HttpOnly, Path=/, SameSite=Lax, without Domain', async () => {
      const secure = await startServer({
        database,
        env: { PUBLIC_ORIGIN: 'https://apply.example.edu' },
      });
      try {
        const client = await registeredClient(secure, 'cookie@example.com');
        const line = client.setCookieHeaders.find((l) => l.startsWith('__Host-session='));
        expect(line).toBeTruthy();
        const attributes = (line as string)
          .split(';')
          .slice(1)
          .map((a) => a.trim().toLowerCase());
        expect(attributes).toContain('secure');
        expect(attributes).toContain('httponly');
        expect(attributes).toContain('path=/');
        expect(attributes).toContain('samesite=lax');
        expect(attributes.some((a) => a.startsWith('domain='))).toBe(false);
      } finally {
        await secure.close();
      }
    });

    it('7.11 the session id has ≥128 bits: ≥22 base64url characters, all distinct over 50 logins', async () => {
      const address = email('entropy');
      await registeredClient(server, address);
      const ids = new Set<string>();
      for (let i = 0; i < 50; i++) {
        const client = server.client();
        await client.post('/public/login', { username: address, password: PASSWORD });
        const id = client.cookies.get('session') as string;
        expect(id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
        ids.add(id);
      }
      expect(ids.size).toBe(50);
      expect([...ids][0]?.length).toBeGreaterThanOrEqual(43); // 256 bits
    });

    it('7.11 fixation: a session id planted before login is never adopted', async () => {
      const address = email('fixation');
      await registeredClient(server, address);
      const victim = server.client();
      const planted = 'attacker-chosen-session-id-0123456789abcdef';
      victim.cookies.set('session', planted);
      await victim.post('/public/login', { username: address, password: PASSWORD });
      expect(victim.cookies.get('session')).not.toBe(planted);
      const attacker = server.client();
      attacker.cookies.set('session', planted);
      expect((await attacker.get('/api/profile')).status).toBe(401);
      expect((await victim.get('/api/profile')).status).toBe(200);
    });

    it('7.11 replaying the cookie after logout gives 401; the logout answer carries Clear-Site-Data', async () => {
      for (const method of ['POST', 'GET'] as const) {
        const client = await registeredClient(server, email(`logout-${method.toLowerCase()}`));
        const stolen = client.cookies.get('session') as string;
        const logout = await client.request(
          method,
          '/api/logout',
          method === 'POST' ? {} : undefined,
        );
        expect(logout.status).toBe(200);
        expect(logout.headers.get('clear-site-data')).toBe('"cache", "cookies", "storage"');
        expect(logout.headers.get('cache-control')).toBe('no-store');
        const replay = server.client();
        replay.cookies.set('session', stolen);
        const response = await replay.get('/api/profile');
        expect(response).toMatchObject({
          status: 401,
          body: { message: serverMessages.sessionRequired },
        });
      }
    });
  });

  it('7.12 server idle timeout: a call at +14:59 succeeds, at +15:01 after the last activity it is 401', async () => {
    const client = await registeredClient(server, email('idle'));
    server.clock.advance(14 * MINUTE + 59_000);
    expect((await client.get('/api/profile')).status).toBe(200);
    server.clock.advance(15 * MINUTE + 1000);
    expect((await client.get('/api/profile')).status).toBe(401);
    // The server keeps no client-side notion of activity: nothing the browser stores extends it.
    const other = await registeredClient(server, email('idle-header'));
    server.clock.advance(15 * MINUTE + 1000);
    const response = await other.request('GET', '/api/profile', undefined, {
      'x-last-activity': String(Date.now() + 3_600_000),
    });
    expect(response.status).toBe(401);
  });

  describe('7.16 CSRF', () => {
    it('7.16 POST /api/answer as text/plain from evil.example (cross-site) is refused and changes nothing', async () => {
      const user = await registeredClient(server, email('csrf'));
      const attempts: Record<string, string>[] = [
        { 'content-type': 'text/plain', origin: EVIL, 'sec-fetch-site': 'cross-site' },
        { 'content-type': 'text/plain' },
        { 'content-type': 'application/x-www-form-urlencoded' },
        { 'content-type': 'multipart/form-data; boundary=x' },
        { 'content-type': 'application/json', origin: EVIL },
        { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
        { 'content-type': 'application/json', 'sec-fetch-site': 'same-site' },
        { 'content-type': 'application/json', origin: 'null' },
      ];
      for (const headers of attempts) {
        const response = await user.request(
          'PUT',
          '/api/answer',
          JSON.stringify({ first_name: 'Forged' }),
          headers,
        );
        expect([403, 415], JSON.stringify(headers)).toContain(response.status);
      }
      const forgedLogout = await user.request('POST', '/api/logout', {}, { origin: EVIL });
      expect(forgedLogout.status).toBe(403);
      const profile = await user.get('/api/profile');
      expect(profile.status).toBe(200);
      expect(profile.body.answer.first_name).toBeUndefined();
    });

    it('7.16 any state-changing call used with GET is 405 (GET /api/logout is the documented exception, D18)', async () => {
      const user = await registeredClient(server, email('get'));
      for (const pathname of [
        '/api/answer',
        '/api/submit',
        '/api/web-status',
        '/api/last-page',
        '/api/validations',
        '/public/login',
        '/public/signup',
        '/public/confirm',
        '/public/resend-confirm',
        '/public/forgot-password',
        '/public/reset-password',
      ]) {
        const response = await user.get(pathname);
        expect(response.status, pathname).toBe(405);
        expect(response.headers.get('allow'), pathname).toMatch(/^(POST|PUT)/);
        expect(response.body.message).toBe(serverMessages.methodNotAllowed);
      }
      expect((await user.get('/api/profile')).status).toBe(200);
    });
  });
});
