/**
 * The applicant's rights over their data (D152): "Delete my account" before and after submission
 * (an admin completes the latter), and "Download my data", as an applicant, an admin and an auditor
 * reading the database would see them; with parallel bursts, hostile bodies and another tenant.
 */
import { and, eq, sql } from 'drizzle-orm';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import { staffMessages } from '../../contract/staff';
import { applications, objectDeletions, staffAudit } from '../../server/db/schema';
import { runInTenant } from '../../server/db/tenantScope';
import { addressHash, logPseudonymKey } from '../../server/security/events';
import { removeNotedObjects } from '../../server/account/accountDeletion';
import { KNOWN_SENSITIVE } from '../fixtures/sensitiveAnswers';
import { databaseText } from '../security/helpers';
import { png } from './documentFiles';
import { KEY, submitFile } from './documentUploads';
import {
  databaseKinds,
  PASSWORD,
  registeredClient,
  startServer,
  type Client,
  type TestServer,
} from './harness';
import { adminWithApplicant, enrolledStaff } from './staffHelpers';

const SOUTH = 'south.test';
const TENANT = 'northfield';

describe.each(databaseKinds)('the applicant’s rights on %s', (database) => {
  let server: TestServer;
  let n = 0;
  const email = (label: string) => `${label}.${++n}@example.com`;
  const inTenant = <T>(fn: () => Promise<T>) => runInTenant(TENANT, fn);
  const db = () => server.built.database.db;

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

  const applicantWithData = async (address: string) => {
    const client = await registeredClient(server, address);
    const saved = await client.put('/api/answer', {
      first_name: 'Ada',
      last_name: 'Lovelace',
      ...KNOWN_SENSITIVE,
    });
    expect(saved.status).toBe(200);
    const { presigned } = await submitFile(server, client, 'transcript.png', png());
    return { client, fileKey: presigned.fields.key };
  };
  const storage = () => server.built.documents.storage;
  const deleteAccount = (client: Client, body: unknown = { password: PASSWORD }) =>
    client.request('DELETE', '/api/account', body);
  const markSubmitted = (userId: string) =>
    inTenant(() =>
      db()
        .update(applications)
        .set({ submittedAt: server.clock.now() })
        .where(and(eq(applications.tenantId, TENANT), eq(applications.userId, userId))),
    );
  const idOf = async (address: string) => {
    const rows = (await inTenant(() =>
      db().execute(sql`select id from users where email = ${address}`),
    )) as unknown as { rows: { id: string }[] };
    return rows.rows[0]!.id;
  };

  it(
    'deletes an unsubmitted account at once with the password typed again: rows, objects and sessions',
    { timeout: 60_000 },
    async () => {
      const address = email('leaver');
      const { client, fileKey } = await applicantWithData(address);
      expect(await storage().exists(fileKey)).not.toBeNull();

      const wrong = await deleteAccount(client, { password: 'Not-The-Password-1' });
      expect(wrong).toMatchObject({
        status: 400,
        body: { message: serverMessages.deletionPasswordWrong },
      });
      expect((await client.get('/api/profile')).status).toBe(200);

      const done = await deleteAccount(client);
      expect(done.status).toBe(200);
      expect(done.body).toEqual({ outcome: 'deleted', message: serverMessages.accountDeleted });
      expect(done.headers.get('clear-site-data')).toContain('cookies');
      expect((await client.get('/api/profile')).status).toBe(401);

      expect(await storage().exists(fileKey)).toBeNull();
      const held = (await databaseText(server))
        .split('\n')
        .filter((row) => [address, 'Lovelace', fileKey].some((value) => row.includes(value)));
      expect(held).toEqual([]);
      const login = await server
        .client()
        .post('/public/login', { username: address, password: PASSWORD });
      expect(login.body.message).toBe(serverMessages.loginFailed);
      const mail = await server.mail(address, 'your account was deleted');
      expect(mail.text).toContain('has been deleted');
      const [row] = await inTenant(() =>
        db().select().from(staffAudit).where(eq(staffAudit.action, 'account.deleted')),
      );
      expect(row).toMatchObject({
        actor: 'applicant',
        applicantId: null,
        detail: `address:${addressHash(logPseudonymKey(server.built.context.config), address)}`,
      });
    },
  );

  it('files a request after submission, once, and an admin completes it from the console (audited)', async () => {
    const adminAddress = email('admin');
    const admin = await enrolledStaff(server, adminAddress, 'admin');
    const address = email('submitted');
    const { client, fileKey } = await applicantWithData(address);
    const userId = await idOf(address);
    await markSubmitted(userId);

    const [first, second] = [await deleteAccount(client), await deleteAccount(client)];
    for (const response of [first, second])
      expect(response.body).toEqual({
        outcome: 'requested',
        message: serverMessages.deletionRequested,
      });
    await server.mail(address, 'request to delete your account');
    const requestMails = (await server.outbox()).filter(
      (m) => m.to === address && m.subject.includes('request to delete'),
    );
    expect(requestMails).toHaveLength(1);
    expect((await client.get('/api/profile')).status).toBe(200);

    const list = await admin.client.get('/staff/api/deletion-requests');
    expect(list.status).toBe(200);
    expect(list.body.submitted_kept_years).toBe(5);
    expect(list.body.requests).toEqual([
      expect.objectContaining({ applicant_id: userId, email: address, name: 'Ada Lovelace' }),
    ]);
    const reader = await enrolledStaff(server, email('reader'), 'reader');
    expect((await reader.client.get('/staff/api/deletion-requests')).status).toBe(403);
    expect(
      (await reader.client.post(`/staff/api/deletion-requests/${userId}/complete`)).status,
    ).toBe(403);

    const completed = await admin.client.post(`/staff/api/deletion-requests/${userId}/complete`);
    expect(completed.body).toEqual({ message: staffMessages.accountDeleted });
    const again = await admin.client.post(`/staff/api/deletion-requests/${userId}/complete`);
    expect(again).toMatchObject({
      status: 404,
      body: { message: staffMessages.noSuchDeletionRequest },
    });
    expect((await client.get('/api/profile')).status).toBe(401);
    expect(await storage().exists(fileKey)).toBeNull();
    // Listed as completed with only the reference: the name and the address went with the account.
    const after = await admin.client.get('/staff/api/deletion-requests');
    expect(after.body.requests).toEqual([]);
    expect(after.body.completed).toEqual([
      {
        reference: list.body.requests[0].reference,
        requested_at: list.body.requests[0].requested_at,
        completed_at: expect.any(String),
        completed_by: adminAddress,
      },
    ]);
    expect(after.text).not.toContain(address);
    await server.mail(address, 'your account was deleted');
    const audit = await admin.client.get('/staff/api/audit');
    const actions = (audit.body.rows as { action: string; actor: string }[]).map((e) => e.action);
    expect(actions).toContain('account.deletion_requested');
    expect(actions).toContain('account.deleted');
  });

  it('lists the requests waiting newest first, each with the applicant’s name and address', async () => {
    const admin = await enrolledStaff(server, email('admin'), 'admin');
    const filed: string[] = [];
    for (const label of ['first', 'second', 'third']) {
      const address = email(label);
      const { client } = await applicantWithData(address);
      await markSubmitted(await idOf(address));
      server.clock.advance(60_000);
      expect((await deleteAccount(client)).body.outcome).toBe('requested');
      filed.push(address);
    }
    const list = await admin.client.get('/staff/api/deletion-requests');
    const mine = (list.body.requests as { email: string; name: string }[]).filter((row) =>
      filed.includes(row.email),
    );
    expect(mine.map((row) => row.email)).toEqual([...filed].reverse());
    expect(mine.every((row) => row.name === 'Ada Lovelace')).toBe(true);
  });

  it('answers an unsubmitted application’s request with no admin in between, and refuses another applicant’s id to an admin', async () => {
    const { admin, applicantId } = await adminWithApplicant(server, email('admin'), email('other'));
    const refused = await admin.client.post(`/staff/api/deletion-requests/${applicantId}/complete`);
    expect(refused.status).toBe(404);
    const bad = await admin.client.post('/staff/api/deletion-requests/not-a-uuid/complete');
    expect(bad.status).toBe(400);
  });

  it('downloads everything held in one ZIP: labelled answers in clear, the document, events and staff reads', async () => {
    const admin = await enrolledStaff(server, email('admin'), 'admin');
    const address = email('export');
    const { client } = await applicantWithData(address);
    const userId = await idOf(address);
    expect((await admin.client.get(`/staff/api/applications/${userId}`)).status).toBe(200);

    const response = await client.get('/api/account/export');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain('filename="account-data.zip"');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const files = unzipSync(new Uint8Array(response.bytes));
    const application = JSON.parse(strFromU8(files['application.json']!));
    expect(application.answers).toContainEqual({
      key: 'ssn',
      question: expect.any(String),
      answer: KNOWN_SENSITIVE.ssn,
    });
    expect(application.answers).toContainEqual(
      expect.objectContaining({ key: 'last_name', answer: 'Lovelace' }),
    );
    expect(application.documents).toEqual([
      expect.objectContaining({ question_key: KEY, file_name: 'transcript.png' }),
    ]);
    expect(Buffer.from(files[application.documents[0].file]!)).toEqual(png());
    const account = JSON.parse(strFromU8(files['account.json']!));
    expect(account.email).toBe(address);
    const events = (account.events as { event: string }[]).map((e) => e.event);
    expect(events).toEqual(expect.arrayContaining(['signed_up', 'confirmed', 'logged_in']));
    expect(account.staff_reads).toEqual([{ at: expect.any(String), action: 'application.read' }]);

    await markSubmitted(userId);
    const named = await client.get('/api/account/export');
    expect(named.headers.get('content-disposition')).toMatch(/filename="[A-Z0-9-]+-data\.zip"/);
    const submitted = JSON.parse(
      strFromU8(unzipSync(new Uint8Array(named.bytes))['account.json']!),
    );
    expect((submitted.events as { event: string }[]).map((e) => e.event)).toContain('submitted');
  });

  it('of 20 parallel deletes exactly one deletes the account, and none fails with a 500', async () => {
    const { client } = await applicantWithData(email('burst'));
    const responses = await Promise.all(Array.from({ length: 20 }, () => deleteAccount(client)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.every((s) => s === 200 || s === 401)).toBe(true);
    expect((await inTenant(() => db().select().from(objectDeletions))).length).toBe(0);
  });

  it('serves exports racing saves, every one whole', async () => {
    const client = await registeredClient(server, email('race'));
    const calls = Array.from({ length: 16 }, (_, i) =>
      i % 2 === 0
        ? client.put('/api/answer', { first_name: `Name${i}` })
        : client.get('/api/account/export'),
    );
    const responses = await Promise.all(calls);
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
    for (const [i, response] of responses.entries())
      if (i % 2 === 1)
        expect(unzipSync(new Uint8Array(response.bytes))['application.json']).toBeDefined();
  });

  it('refuses hostile bodies with a 4xx and our message, never a 500', async () => {
    const client = await registeredClient(server, email('hostile'));
    const bodies: unknown[] = [
      { password: 'abc\u0000def' },
      '{"password":"\\ud800"}',
      { password: 42 },
      { password: ['x'] },
      {},
      null,
      { password: 'x'.repeat(2_000_000) },
      '{"password":',
    ];
    for (const body of bodies) {
      const response = await deleteAccount(client, body);
      expect(response.status, JSON.stringify(body)?.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(typeof response.body.message).toBe('string');
    }
    expect((await client.get('/api/profile')).status).toBe(200);
  });

  it('gives another tenant’s session nothing: neither the export nor the deletion', async () => {
    const address = email('north');
    const north = await registeredClient(server, address);
    const south = server.client(SOUTH);
    south.cookies.set('session', north.cookies.get('session')!);
    expect((await south.get('/api/account/export')).status).toBe(401);
    expect((await south.request('DELETE', '/api/account', { password: PASSWORD })).status).toBe(
      401,
    );
    expect((await north.get('/api/profile')).status).toBe(200);
  });

  it('removes noted objects whose deletion failed on a later try', async () => {
    const key = `${TENANT}/00000000-0000-4000-8000-000000000000/${KEY}/leftover`;
    await storage().put(key, png(), 'image/png');
    await inTenant(() =>
      db()
        .insert(objectDeletions)
        .values({ tenantId: TENANT, objectKey: key, createdAt: server.clock.now() }),
    );
    const ctx = server.built.documents;
    await inTenant(() => removeNotedObjects(ctx, TENANT, [key]));
    expect(await storage().exists(key)).toBeNull();
    expect(await inTenant(() => db().select().from(objectDeletions))).toEqual([]);
  });
});
