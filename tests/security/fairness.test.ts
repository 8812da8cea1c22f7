/**
 * D71: shared resources are fair and bounded. The job queue takes turns between applicants
 * (D71), uploads that are never converted are swept, and an applicant's uploads are capped.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentMessages } from '../../contract';
import { JobQueue } from '../../server/jobs/queue';
import { MAX_PENDING_UPLOADS } from '../../server/documents';
import { docx, png } from '../server/documentFiles';
import { KEY, presign, upload, waitForSettled } from '../server/documentUploads';
import {
  databaseKinds,
  registeredClient,
  startServer,
  type Client,
  type TestServer,
} from '../server/harness';

const TEST_JOB = 'fairness-test';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(databaseKinds)('D71 fair and bounded shared resources on %s', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      database,
      config: { publicRateLimit: 100_000, jobs: { pollMs: 50, leaseMs: 120_000 } },
    });
  }, 60_000);
  afterAll(async () => server?.close());

  /** Runs a queue of slow test jobs and returns the owners in the order their jobs ran. */
  async function runInTurn(queued: { tenantId: string; userId: string }[], jobMs: number) {
    const queue = new JobQueue(server.built.database.db, { now: () => new Date(), pollMs: 20 });
    const order: { owner: string; waitedMs: number }[] = [];
    const started = performance.now();
    queue.register<{ tenantId: string; userId: string }>(TEST_JOB, {
      async run(job) {
        order.push({ owner: job.payload.userId, waitedMs: performance.now() - started });
        await pause(jobMs);
      },
    });
    for (const payload of queued) await queue.enqueue(TEST_JOB, payload);
    queue.start();
    while (order.length < queued.length) await pause(20);
    await queue.stop();
    return order;
  }

  it('D71 one applicant with 10 queued jobs delays another applicant by one job, not ten', async () => {
    const heavy = Array.from({ length: 10 }, () => ({ tenantId: 'northfield', userId: 'heavy' }));
    const order = await runInTurn([...heavy, { tenantId: 'northfield', userId: 'light' }], 150);
    const light = order.findIndex((run) => run.owner === 'light');
    console.info(
      `D71 queue on ${database}: the light job ran ${light + 1}th of 11, after ${order[light]?.waitedMs.toFixed(0)} ms (each job 150 ms)`,
    );
    expect(light).toBe(1);
  });

  it('D71 five applicants with 6 jobs each, queued one applicant after another, take turns', async () => {
    const queued = ['a', 'b', 'c', 'd', 'e'].flatMap((userId) =>
      Array.from({ length: 6 }, () => ({ tenantId: 'northfield', userId })),
    );
    const order = await runInTurn(queued, 20);
    // Every round of five runs serves each applicant once.
    for (let round = 0; round < 6; round++)
      expect(new Set(order.slice(round * 5, round * 5 + 5).map((run) => run.owner)).size).toBe(5);
  }, 30_000);

  it("D71 an applicant's small image is converted before another applicant's Word files queued earlier", async () => {
    const heavy = await registeredClient(server, 'heavy.words@example.com');
    const light = await registeredClient(server, 'light.image@example.com');
    const words = await docx(
      Array.from({ length: 100 }, (_, i) => `Paragraph ${i} of a long personal statement.`),
    );
    const uploaded = async (client: Client, name: string, bytes: Buffer) => {
      const presigned = await presign(client, KEY);
      expect((await upload(server, presigned, [{ name, bytes }])).status).toBe(204);
      return () =>
        client.post(`/api/pdf/document-answer/${KEY}`, {
          file_key: presigned.fields.key,
          file_name: name,
        });
    };
    // One Word file alone, to know what one costs here (and to start the print browser).
    const alone = performance.now();
    expect((await (await uploaded(heavy, 'warm-up.docx', words))()).status).toBe(202);
    expect((await waitForSettled(heavy, KEY)).status).toBe('COMPLETED');
    const oneWordFile = performance.now() - alone;
    // The heavy applicant sends three Word files in a row (one runs, the newest waits); then the
    // light applicant sends a small image.
    const requests = [];
    for (let i = 0; i < 3; i++) requests.push(await uploaded(heavy, `statement${i}.docx`, words));
    const image = await uploaded(light, 'small.png', png());
    for (const request of requests) expect((await request()).status).toBe(202);
    const started = performance.now();
    expect((await image()).status).toBe(202);
    const settled = await waitForSettled(light, KEY);
    const waited = performance.now() - started;
    const heavyAtThatMoment = (await heavy.get(`/api/pdf/document-answer/${KEY}`)).body.status;
    console.info(
      `D71 conversions on ${database}: one Word file alone ${oneWordFile.toFixed(0)} ms; the small image settled after ${waited.toFixed(0)} ms; the Word file queued before it was ${heavyAtThatMoment}`,
    );
    expect(settled.status).toBe('COMPLETED');
    expect(heavyAtThatMoment).not.toBe('COMPLETED');
    // At most the Word file already running, and a few seconds besides.
    expect(waited).toBeLessThan(oneWordFile + 3_000);
    expect((await waitForSettled(heavy, KEY)).status).toBe('COMPLETED');
  }, 60_000);

  it(`D71 at most ${MAX_PENDING_UPLOADS} uploads waiting per applicant, with the product's message, under a burst of 50`, async () => {
    const client = await registeredClient(server, 'many.uploads@example.com');
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => client.post('/api/presigned-url', { answer_key: KEY })),
    );
    const granted = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(granted).toHaveLength(MAX_PENDING_UPLOADS);
    expect(refused).toHaveLength(50 - MAX_PENDING_UPLOADS);
    for (const r of refused) expect(r.body).toEqual({ message: documentMessages.tooManyUploads });
    // Using an upload frees its place; another applicant is not affected.
    const presigned = granted[0]?.body as Parameters<typeof upload>[1];
    expect((await upload(server, presigned, [{ name: 'used.png', bytes: png() }])).status).toBe(
      204,
    );
    expect(
      (
        await client.post(`/api/pdf/document-answer/${KEY}`, {
          file_key: presigned.fields.key,
          file_name: 'used.png',
        })
      ).status,
    ).toBe(202);
    expect((await client.post('/api/presigned-url', { answer_key: KEY })).status).toBe(200);
    expect((await client.post('/api/presigned-url', { answer_key: KEY })).status).toBe(429);
    const other = await registeredClient(server, 'other.uploads@example.com');
    expect((await other.post('/api/presigned-url', { answer_key: KEY })).status).toBe(200);
    await waitForSettled(client, KEY);
  });

  it('D71 an upload never converted is swept once its presigned form has expired', async () => {
    const client = await registeredClient(server, 'forgotten.upload@example.com');
    const kept = await presign(client);
    expect((await upload(server, kept, [{ name: 'kept.png', bytes: png() }])).status).toBe(204);
    const forgotten = await presign(client);
    expect((await upload(server, forgotten, [{ name: 'left.png', bytes: png() }])).status).toBe(
      204,
    );
    expect(
      (
        await client.post(`/api/pdf/document-answer/${KEY}`, {
          file_key: kept.fields.key,
          file_name: 'kept.png',
        })
      ).status,
    ).toBe(202);
    expect((await waitForSettled(client, KEY)).status).toBe('COMPLETED');
    const storage = server.built.documents.storage;
    expect(await storage.exists(forgotten.fields.key)).not.toBeNull();
    server.clock.advance(20 * 60_000);
    for (let i = 0; i < 100 && (await storage.exists(forgotten.fields.key)); i++) await pause(50);
    expect(await storage.exists(forgotten.fields.key)).toBeNull();
    // The converted upload stays (its document row holds it).
    expect(await storage.exists(kept.fields.key)).not.toBeNull();
  }, 30_000);
});
