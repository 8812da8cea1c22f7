/**
 * "Delete my account" (D152) racing the applicant's own work: autosaves released together with the
 * deletion get a clean answer in our words (never a 500 from a row whose account just went), and a
 * document conversion that finishes after the account was deleted writes nothing back.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import { runInTenant } from '../../server/db/tenantScope';
import { JobQueue } from '../../server/jobs/queue';
import {
  conversionJob,
  CONVERSION_JOB,
  type DocumentsContext,
} from '../../server/documents';
import type { ObjectStorage } from '../../server/storage/storage';
import { convertedKey } from '../../server/storage/storage';
import { png } from './documentFiles';
import { KEY, presign, upload } from './documentUploads';
import { databaseKinds, PASSWORD, registeredClient, startServer, type TestServer } from './harness';

const TENANT = 'northfield';

describe.each(databaseKinds)('deleting an account while it is in use, on %s', (database) => {
  let server: TestServer;
  let n = 0;
  const email = (label: string) => `${label}.${++n}@example.com`;

  beforeAll(async () => {
    server = await startServer({ database });
  });
  afterAll(async () => server?.close());

  const count = async (query: ReturnType<typeof sql>) => {
    const result = (await runInTenant(TENANT, () =>
      server.built.database.db.execute(query),
    )) as unknown as { rows: { n: number | string }[] };
    return Number(result.rows[0]?.n ?? 0);
  };

  it('20 autosaves released with the deletion: each is saved or refused in our words, none is a 500, nothing is left', async () => {
    for (let round = 0; round < 5; round++) {
      const address = email('racer');
      const client = await registeredClient(server, address);
      const saves = Array.from({ length: 20 }, (_, i) =>
        client.put('/api/answer', { first_name: `Ada${i}`, last_name: 'Lovelace' }),
      );
      const deletion = client.request('DELETE', '/api/account', { password: PASSWORD });
      const [deleted, ...saved] = await Promise.all([deletion, ...saves]);
      expect(deleted.body).toEqual({ outcome: 'deleted', message: serverMessages.accountDeleted });
      for (const response of saved) {
        expect([200, 401, 409], response.text).toContain(response.status);
        if (response.status === 401)
          expect(response.body.message).toBe(serverMessages.sessionRequired);
      }
      expect(await count(sql`select count(*) as n from users where email = ${address}`)).toBe(0);
      expect(
        await count(
          sql`select count(*) as n from applications a where not exists (select 1 from users u where u.id = a.user_id)`,
        ),
      ).toBe(0);
    }
  });

  it('a conversion that finishes after the deletion writes no row and leaves no object', async () => {
    const address = email('converting');
    const client = await registeredClient(server, address);
    // The server's own worker is stopped: this test runs the conversion itself, held mid-way.
    await server.built.documents.queue.stop();
    const presigned = await presign(client);
    expect((await upload(server, presigned, [{ name: 'scan.png', bytes: png() }])).status).toBe(
      204,
    );
    const fileKey = presigned.fields.key;
    const queued = await client.post(`/api/pdf/document-answer/${KEY}`, {
      file_key: fileKey,
      file_name: 'scan.png',
    });
    expect(queued.status).toBe(202);

    const docs = server.built.documents;
    let reading: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (reading = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const bytes = await docs.storage.get(fileKey);
    const held: ObjectStorage = Object.assign(Object.create(docs.storage) as ObjectStorage, {
      get: async () => {
        reading();
        await released;
        return bytes;
      },
    });
    const worker = new JobQueue(docs.db, { now: server.clock.now });
    worker.register(CONVERSION_JOB, conversionJob({ ...docs, storage: held } as DocumentsContext));
    const running = worker.runOnce();
    await started;

    const deleted = await client.request('DELETE', '/api/account', { password: PASSWORD });
    expect(deleted.body.outcome).toBe('deleted');
    release();
    await running;

    expect(await docs.storage.exists(convertedKey(fileKey))).toBeNull();
    expect(await docs.storage.exists(fileKey)).toBeNull();
    expect(await count(sql`select count(*) as n from documents where file_key = ${fileKey}`)).toBe(
      0,
    );
    expect(await count(sql`select count(*) as n from object_deletions`)).toBe(0);
  });
});
