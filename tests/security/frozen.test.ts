/**
 * D69: a submitted application is frozen. After submit nothing that feeds it (answers,
 * documents, tabs, add-another counts) changes, whatever arrives and however fast; document calls
 * racing the submit land before it or are refused (D69).
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentMessages, serverMessages } from '../../contract';
import { applications, documents } from '../../server/db/schema';
import { runInTenant } from '../../server/db/tenantScope';
import { validApplication } from '../definitions/fixtures';
import { png } from '../server/documentFiles';
import { KEY, presign, submitFile, upload } from '../server/documentUploads';
import {
  databaseKinds,
  registeredClient,
  startServer,
  type Client,
  type Response,
  type TestServer,
} from '../server/harness';

const BURST = 50;
const STAFF_KEY = 'frozen-staff-key-0123456789abcdef0123456789';
const SUBMITTED = { message: serverMessages.alreadySubmitted, code: 'SUBMITTED' };

describe.each(databaseKinds)('D69 a submitted application is frozen on %s', (database) => {
  let server: TestServer;
  let n = 0;

  beforeAll(async () => {
    server = await startServer({
      database,
      config: { publicRateLimit: 100_000, jobs: { pollMs: 50, leaseMs: 120_000 } },
      env: { STAFF_API_KEYS: `northfield=${STAFF_KEY}` },
    });
  }, 60_000);
  afterAll(async () => server?.close());

  /** An applicant with a complete application and a converted transcript, not yet submitted. */
  async function readyApplicant(): Promise<{ client: Client; email: string }> {
    const email = `frozen.${++n}@example.com`;
    const client = await registeredClient(server, email);
    expect((await client.put('/api/answer', validApplication)).status).toBe(200);
    const { settled } = await submitFile(server, client, 'transcript.png', png());
    expect(settled.status).toBe('COMPLETED');
    return { client, email };
  }

  /** What feeds the application, read from the database: the answers' row and the documents. */
  async function feeds(email: string) {
    const db = server.built.database.db;
    return runInTenant('northfield', async () => {
      const profile = await db.query.users.findFirst({
        where: (users, { eq: equals }) => equals(users.email, email),
      });
      const userId = profile?.id as string;
      const [application] = await db
        .select({
          answers: applications.answers,
          tabs: applications.tabs,
          addAnother: applications.addAnother,
          version: applications.version,
        })
        .from(applications)
        .where(and(eq(applications.tenantId, 'northfield'), eq(applications.userId, userId)));
      const docs = await db
        .select({
          key: documents.questionKey,
          fileKey: documents.fileKey,
          generation: documents.generation,
          status: documents.status,
        })
        .from(documents)
        .where(and(eq(documents.tenantId, 'northfield'), eq(documents.userId, userId)));
      return { application, docs };
    });
  }

  const staffView = async (email: string) => {
    const minted = await server
      .client()
      .request('POST', '/service/tokens', { email }, { authorization: `Bearer ${STAFF_KEY}` });
    return (await server.client().get(`/service/tmp-pdf?service_token=${minted.body.token}`)).body;
  };

  it('D69 after submit every call that feeds the application answers 409 with the product message, and nothing changes', async () => {
    const { client, email } = await readyApplicant();
    const early = await presign(client);
    expect(await upload(server, early, [{ name: 'other.png', bytes: png(80, 60) }])).toMatchObject({
      status: 204,
    });
    expect((await client.post('/api/submit')).status).toBe(200);
    const before = await feeds(email);
    const staffBefore = await staffView(email);

    const calls: [string, () => Promise<Response>][] = [
      ['answer', () => client.put('/api/answer', { first_name: 'Changed' })],
      ['tabs', () => client.put('/api/tabs', { tab_id: 'transcript', chosen_tab: 'counselor' })],
      [
        'add-another',
        () => client.put('/api/add-another', { button_id: 'college', num_components: 2 }),
      ],
      ['presign', () => client.post('/api/presigned-url', { answer_key: KEY })],
      [
        'replace',
        () =>
          client.post(`/api/pdf/document-answer/${KEY}`, {
            file_key: early.fields.key,
            file_name: 'other.png',
          }),
      ],
      ['delete conversion', () => client.request('DELETE', `/api/pdf/document-answer/${KEY}`)],
      ['delete answer', () => client.request('DELETE', `/api/document-answer/${KEY}`)],
    ];
    for (const [name, call] of calls) {
      const response = await call();
      expect(response.status, name).toBe(409);
      expect(response.body, name).toEqual(SUBMITTED);
    }
    expect(await feeds(email)).toEqual(before);
    expect(await staffView(email)).toEqual(staffBefore);
    // What an applicant may still do (D69): read, download the PDF, move between pages, log out.
    expect((await client.get('/api/document-answer')).body).toHaveProperty(KEY);
    expect((await client.put('/api/last-page', { last_page: '/completion' })).status).toBe(204);
  });

  it(`D69 ${BURST} parallel document calls racing the submit: the documents read when the submit answers are the documents afterwards`, async () => {
    const { client, email } = await readyApplicant();
    const replacements: string[] = [];
    // Ten uploads, each sent more than once (within the cap on uploads waiting, D71).
    for (let i = 0; i < 10; i++) {
      const presigned = await presign(client);
      expect((await upload(server, presigned, [{ name: `r${i}.png`, bytes: png() }])).status).toBe(
        204,
      );
      replacements.push(presigned.fields.key);
    }
    // Replacements and deletions alternate; the submit is released in the middle of the burst.
    const writes = Array.from({ length: BURST }, (_, i) => {
      const fileKey = replacements[(i >> 1) % replacements.length] as string;
      if (i % 2 === 0)
        return () =>
          client.post(`/api/pdf/document-answer/${KEY}`, {
            file_key: fileKey,
            file_name: `r${(i >> 1) % replacements.length}.png`,
          });
      return i % 4 === 1
        ? () => client.request('DELETE', `/api/pdf/document-answer/${KEY}`)
        : () => client.request('DELETE', `/api/document-answer/${KEY}`);
    });
    let atSubmit: Awaited<ReturnType<typeof feeds>> | undefined;
    const first = writes.slice(0, BURST / 2).map((write) => write());
    const submitted = client.post('/api/submit').then(async (response) => {
      atSubmit = await feeds(email);
      return response;
    });
    const answered = await Promise.all([
      ...first,
      ...writes.slice(BURST / 2).map((write) => write()),
    ]);
    expect((await submitted).status).toBe(200);
    for (const response of answered) {
      // 404: an upload sent twice was already replaced by another one and deleted.
      expect([202, 204, 404, 409], response.text).toContain(response.status);
      if (response.status === 409) expect(response.body).toEqual(SUBMITTED);
      if (response.status === 404)
        expect(response.body).toEqual({ message: documentMessages.uploadNotFound });
    }
    const after = await feeds(email);
    expect(after.docs).toEqual(
      (atSubmit as Awaited<ReturnType<typeof feeds>>).docs.map((doc) => ({
        ...doc,
        // A conversion queued before the submit may still finish (D69); the file stays the same.
        status: after.docs.find((d) => d.key === doc.key)?.status,
      })),
    );
    const refused = answered.filter((r) => r.status === 409).length;
    expect(refused).toBeGreaterThan(0);
    console.info(
      `D69 on ${database}: ${BURST - refused} of ${BURST} calls before the submit, ${refused} refused after it`,
    );
  }, 60_000);
});
