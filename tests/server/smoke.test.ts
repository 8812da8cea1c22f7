import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileResponse } from '../../contract';
import { databaseKinds, registeredClient, startServer, type TestServer } from './harness';

describe.each(databaseKinds)('server smoke test on %s', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ database });
  });
  afterAll(async () => server?.close());

  it('answers /healthz with the database in use', async () => {
    const response = await server.client().get('/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', database });
  });

  it('signs up, confirms from the outbox, logs in and reads the profile', async () => {
    const client = await registeredClient(server, 'smoke@example.com');
    const profile = await client.get('/api/profile');
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({
      username: 'smoke@example.com',
      answer: {},
      web_status: [],
      last_page: null,
    });
    expect(profile.body.successful_login).toHaveLength(1);
    // The client parses every response with its contract schema: the server must match it.
    expect(profileResponse.safeParse(profile.body).success).toBe(true);
  });
});
