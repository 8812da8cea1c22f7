import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import { databaseKinds, PASSWORD, registeredClient, startServer, type TestServer } from './harness';

const MINUTE = 60 * 1000;

describe.each(databaseKinds)('sessions on %s', (database) => {
  let server: TestServer;
  let n = 0;
  const email = (label: string) => `${label}.${++n}@example.com`;

  beforeAll(async () => {
    server = await startServer({ database });
  });
  afterAll(async () => server?.close());

  it('sets an HttpOnly SameSite=Lax session cookie and a readable indicator cookie at login', async () => {
    const client = await registeredClient(server, email('cookies'));
    const session = client.setCookieHeaders.find((line) => line.startsWith('session='));
    const indicator = client.setCookieHeaders.find((line) => line.startsWith('signed_in='));
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).toMatch(/Path=\//);
    expect(session).not.toMatch(/Domain=/i);
    expect(indicator).toBe('signed_in=1; Path=/; SameSite=Lax');
    expect(client.cookies.get('session')!.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
  });

  it('gives a new session id at every login (no fixation)', async () => {
    const address = email('fixation');
    const client = await registeredClient(server, address);
    const first = client.cookies.get('session');
    await client.post('/public/login', { username: address, password: PASSWORD });
    expect(client.cookies.get('session')).not.toBe(first);
  });

  it('answers 401 with the session-invalid message without a session, and clears the cookies', async () => {
    const client = server.client();
    client.cookies.set('session', 'forged-session-id');
    const response = await client.get('/api/profile');
    expect(response).toMatchObject({
      status: 401,
      body: { message: serverMessages.sessionRequired },
    });
    expect(serverMessages.sessionRequired).toBe(
      'Your session is invalid. Please clear your cookies and login again.',
    );
    expect(client.cookies.has('session')).toBe(false);
  });

  it('clears only the cookies a 401 request carried: a late answer to a logged-out tab leaves a new session alone', async () => {
    const stale = server.client();
    stale.cookies.set('session', 'ended-session-id');
    stale.cookies.set('signed_in', '1');
    const carried = await stale.get('/api/profile');
    expect(carried.status).toBe(401);
    expect(carried.headers.getSetCookie().map((line) => line.split('=')[0])).toEqual([
      'session',
      'signed_in',
    ]);
    // Sent after another tab's logout (no cookies), answered after a login in this browser.
    const bare = await server.client().get('/api/profile');
    expect(bare).toMatchObject({ status: 401, body: { message: serverMessages.sessionRequired } });
    expect(bare.headers.getSetCookie()).toEqual([]);
  });

  it('logs out: the old cookie no longer works and the answer clears site data', async () => {
    const client = await registeredClient(server, email('logout'));
    const cookie = client.cookies.get('session') as string;
    const logout = await client.get('/api/logout');
    expect(logout.status).toBe(200);
    expect(logout.headers.get('clear-site-data')).toBe('"cache", "cookies", "storage"');
    expect(client.cookies.size).toBe(0);
    const replay = server.client();
    replay.cookies.set('session', cookie);
    expect((await replay.get('/api/profile')).status).toBe(401);
  });

  /** Another login to the same account: a second browser or computer. */
  const loginAgain = async (address: string) => {
    const other = server.client();
    expect(
      (await other.post('/public/login', { username: address, password: PASSWORD })).status,
    ).toBe(200);
    return other;
  };

  it('logs out of every device: each session of the account ends, another account keeps its own', async () => {
    const address = email('everywhere');
    const here = await registeredClient(server, address);
    const lostLaptop = await loginAgain(address);
    const someoneElse = await registeredClient(server, email('bystander'));

    // A link or an image cannot do it: only a POST.
    expect((await lostLaptop.get('/api/logout/everywhere')).status).toBe(405);
    expect((await lostLaptop.get('/api/profile')).status).toBe(200);

    const out = await here.post('/api/logout/everywhere');
    expect(out).toMatchObject({
      status: 200,
      body: { message: serverMessages.loggedOutEverywhere },
    });
    expect(out.headers.get('clear-site-data')).toBe('"cache", "cookies", "storage"');
    expect(here.cookies.size).toBe(0);
    expect((await lostLaptop.get('/api/profile')).status).toBe(401);
    expect((await someoneElse.get('/api/profile')).status).toBe(200);
    // The account itself is untouched: a new login works.
    expect((await (await loginAgain(address)).get('/api/profile')).status).toBe(200);
  });

  it('a burst of logouts of every device from each of the sessions at once ends them all, with no error', async () => {
    const address = email('everywhere-burst');
    const first = await registeredClient(server, address);
    const others = await Promise.all(Array.from({ length: 5 }, () => loginAgain(address)));
    const clients = [first, ...others];
    const cookies = clients.map((client) => client.cookies.get('session') as string);
    const answers = await Promise.all(
      clients.map((client) => client.post('/api/logout/everywhere')),
    );
    // Each either ended them all (200) or found its own session already ended (401).
    for (const answer of answers) expect([200, 401]).toContain(answer.status);
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    for (const cookie of cookies) {
      const replay = server.client();
      replay.cookies.set('session', cookie);
      expect((await replay.get('/api/profile')).status).toBe(401);
    }
  });

  it('ends after 15 minutes without activity, on the server', async () => {
    const local = await startServer({ database });
    try {
      const client = await registeredClient(local, 'idle@example.com');
      local.clock.advance(14 * MINUTE + 59_000);
      expect((await client.get('/api/profile')).status).toBe(200);
      local.clock.advance(14 * MINUTE + 59_000);
      expect((await client.get('/api/profile')).status).toBe(200); // activity extended it
      local.clock.advance(15 * MINUTE + 1000);
      expect((await client.get('/api/profile')).status).toBe(401);
    } finally {
      await local.close();
    }
  });

  it('ends after 12 hours in any case, even when active', async () => {
    const local = await startServer({ database });
    try {
      const client = await registeredClient(local, 'absolute@example.com');
      for (let elapsed = 0; elapsed < 12 * 60; elapsed += 10) {
        local.clock.advance(10 * MINUTE);
        const status = (await client.get('/api/profile')).status;
        if (elapsed + 10 < 12 * 60) expect(status).toBe(200);
        else expect(status).toBe(401);
      }
    } finally {
      await local.close();
    }
  });
});
