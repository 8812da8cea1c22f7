/**
 * D70: sensitive answers are never stored without an account. Which keys are sensitive comes
 * from the definition (`sensitive: true`, the runtime's `sensitiveKeys`), for the app and the server
 * alike (D70).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import { sensitiveKeys } from '../../runtime';
import { sha256 } from '../../server/secrets';
import { tmpAnswers } from '../../server/db/schema';
import { runInTenant } from '../../server/db/tenantScope';
import { definitionsById, DEFAULT_TENANT_SEED } from '../../server/tenants';
import { databaseKinds, startServer, type TestServer } from '../server/harness';
import { databaseText } from './helpers';

const BURST = 50;
const definition = definitionsById.get(DEFAULT_TENANT_SEED.definitionId)!;
const SENSITIVE = [...sensitiveKeys(definition)];

/** A value each sensitive key accepts (all are text or coded values kept as strings). */
const valueOf = (key: string, i = 0) =>
  key === 'ssn' ? `123-45-${String(6789 + i).slice(-4)}` : `V${i}X${key.length}`;

describe.each(databaseKinds)('D70 sensitive answers without an account on %s', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ database, config: { publicRateLimit: 100_000 } });
  });
  afterAll(async () => server?.close());

  it('D70 the definition marks SSN, citizenship and conduct answers (with their labels) sensitive', () => {
    for (const key of [
      'ssn',
      'citizenship_type',
      'citizenship',
      'citizenship_desc',
      'conviction',
      'conviction_comment',
    ])
      expect(SENSITIVE, key).toContain(key);
    expect(SENSITIVE).not.toContain('first_name');
  });

  it(`D70 each sensitive key, alone or among others, is refused with 400 naming it; ${BURST} parallel tries store nothing`, async () => {
    for (const key of SENSITIVE) {
      const response = await server
        .client()
        .post('/public/tmp', { answers: { first_name: 'Ada', [key]: valueOf(key) } });
      expect(response.status, key).toBe(400);
      expect(response.body, key).toEqual({ message: serverMessages.sensitiveNotKept([key]) });
    }
    const responses = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        server.client().post('/public/tmp', {
          answers: {
            first_name: `Burst${i}`,
            [SENSITIVE[i % SENSITIVE.length] as string]: valueOf(
              SENSITIVE[i % SENSITIVE.length] as string,
              i,
            ),
          },
        }),
      ),
    );
    expect(responses.every((r) => r.status === 400)).toBe(true);
    const dump = await databaseText(server);
    expect(dump).not.toContain('123-45-');
    expect(dump).not.toContain('Burst');
  });

  it('a date that is not a real ISO date is refused with 400 naming it, and nothing of the request is kept (D128)', async () => {
    const bad = ['hello', '2008-02-30', '2008-13-01', '02/30/2008'];
    const responses = await Promise.all(
      bad.map((value, i) =>
        server
          .client()
          .post('/public/tmp', { answers: { first_name: `DateProbe${i}`, birth_date: value } }),
      ),
    );
    for (const [i, response] of responses.entries()) {
      expect(response.status, bad[i]).toBe(400);
      expect(response.body, bad[i]).toEqual({ message: serverMessages.badValues(['birth_date']) });
    }
    for (const value of ['2008-02-2\u0000', '2008-02-\ud8009']) {
      const response = await server
        .client()
        .post('/public/tmp', { answers: { first_name: 'DateProbeX', birth_date: value } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: serverMessages.badRequest });
    }
    expect(await databaseText(server)).not.toContain('DateProbe');

    const issued = await server
      .client()
      .post('/public/tmp', { answers: { birth_date: '2008-02-29' } });
    expect(issued.status).toBe(200);
    const read = await server.client().get(`/public/tmp?token=${issued.body.token}`);
    expect(read.body).toEqual({ answers: { birth_date: '2008-02-29' } });
  });

  it('D70 other answers are still kept, and a row stored before this rule never hands sensitive answers out', async () => {
    const issued = await server.client().post('/public/tmp', { answers: { first_name: 'Grace' } });
    expect(issued.status).toBe(200);
    const read = await server.client().get(`/public/tmp?token=${issued.body.token}`);
    expect(read.body).toEqual({ answers: { first_name: 'Grace' } });

    const token = 'legacy-token-0123456789abcdefghijklmnop';
    const legacy = Object.fromEntries(SENSITIVE.map((key) => [key, valueOf(key)]));
    await runInTenant(DEFAULT_TENANT_SEED.id, () =>
      server.built.database.db.insert(tmpAnswers).values({
        tokenHash: sha256(token),
        tenantId: DEFAULT_TENANT_SEED.id,
        answers: { first_name: 'Old', ...legacy },
        createdAt: server.clock.now(),
        expiresAt: new Date(server.clock.now().getTime() + 60_000),
      }),
    );
    const old = await server.client().get(`/public/tmp?token=${token}`);
    expect(old.status).toBe(200);
    expect(old.body).toEqual({ answers: { first_name: 'Old' } });
  });
});
