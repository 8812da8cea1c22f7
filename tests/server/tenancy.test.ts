/**
 * Tenant isolation: the Host header selects the tenant; accounts, sessions, answers and temporary
 * answers of one tenant are invisible to another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import { databaseKinds, registeredClient, startServer, type TestServer } from './harness';

const SOUTH = 'southfield.test';
const NORTH_PASSWORD = 'North-Password-4711';
const SOUTH_PASSWORD = 'South-Password-0815';

describe.each(databaseKinds)('tenant isolation on %s', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      database,
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

  it('lets one e-mail address register in both tenants, each with its own password on its own host', async () => {
    const email = 'twice@example.com';
    const north = await registeredClient(server, email, NORTH_PASSWORD);
    const south = await registeredClient(server, email, SOUTH_PASSWORD, SOUTH);
    expect((await north.get('/api/profile')).body.username).toBe(email);
    expect((await south.get('/api/profile')).body.username).toBe(email);

    const northWithSouth = await server
      .client()
      .post('/public/login', { username: email, password: SOUTH_PASSWORD });
    expect(northWithSouth.status).toBe(400);
    expect(northWithSouth.body).toEqual({ message: serverMessages.loginFailed });
    const southWithNorth = await server
      .client(SOUTH)
      .post('/public/login', { username: email, password: NORTH_PASSWORD });
    expect(southWithNorth.status).toBe(400);
    expect(southWithNorth.body).toEqual({ message: serverMessages.loginFailed });

    const northLogin = await server
      .client()
      .post('/public/login', { username: email, password: NORTH_PASSWORD });
    expect(northLogin.status).toBe(200);
    const southLogin = await server
      .client(SOUTH)
      .post('/public/login', { username: email, password: SOUTH_PASSWORD });
    expect(southLogin.status).toBe(200);
  });

  it('refuses a session cookie of the default tenant on the other tenant host', async () => {
    const north = await registeredClient(server, 'replay@example.com');
    const intruder = server.client(SOUTH);
    for (const [name, value] of north.cookies) intruder.cookies.set(name, value);
    const profile = await intruder.get('/api/profile');
    expect(profile.status).toBe(401);
    expect(profile.body).toEqual({ message: serverMessages.sessionRequired });
    const save = await intruder.put('/api/answer', { first_name: 'Intruder' });
    expect(save.status).toBe(401);
    expect((await north.get('/api/profile')).body.answer).toEqual({});
  });

  it("never shows one tenant's answers in the other's profile", async () => {
    const email = 'answers@example.com';
    const north = await registeredClient(server, email, NORTH_PASSWORD);
    const south = await registeredClient(server, email, SOUTH_PASSWORD, SOUTH);
    expect((await north.put('/api/answer', { first_name: 'Northern' })).status).toBe(200);
    expect((await south.put('/api/answer', { last_name: 'Southern' })).status).toBe(200);
    expect((await north.put('/api/last-page', { last_page: '/education' })).status).toBe(204);
    expect((await north.post('/api/web-status', { web_status: 'started' })).status).toBe(204);

    const northProfile = await north.get('/api/profile');
    expect(northProfile.body.answer).toEqual({ first_name: 'Northern' });
    expect(northProfile.body.last_page).toBe('/education');
    const southProfile = await south.get('/api/profile');
    expect(southProfile.body.answer).toEqual({ last_name: 'Southern' });
    expect(southProfile.body.last_page).toBeNull();
    expect(southProfile.body.web_status).toEqual([]);
    expect(southProfile.body.successful_login).toHaveLength(1);
  });

  it("refuses a user of the default tenant logging in on the other tenant's host with their password", async () => {
    const email = 'north-only@example.com';
    await registeredClient(server, email, NORTH_PASSWORD);
    const response = await server
      .client(SOUTH)
      .post('/public/login', { username: email, password: NORTH_PASSWORD });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'Incorrect email address or password.' });
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('does not read temporary answers of one tenant on the other', async () => {
    const stored = await server.client().post('/public/tmp', { answers: { first_name: 'Ada' } });
    expect(stored.status).toBe(200);
    const token = stored.body.token as string;
    const elsewhere = await server.client(SOUTH).get(`/public/tmp?token=${token}`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toEqual({ message: serverMessages.tmpExpired });
    expect((await server.client().get(`/public/tmp?token=${token}`)).status).toBe(200);
  });
});
