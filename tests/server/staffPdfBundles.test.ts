/**
 * "Download PDFs" (D169): the filtered set as one ZIP of PDFs named for people, built by the worker
 * with its progress, for admins only and in their college only, audited once; a set over the limit
 * is refused with our message; two started together are two honest ZIPs; retention removes a
 * finished one a day later. The ZIP is streamed (D176): a set over D169's former cap of 200 is one
 * ZIP of all its PDFs.
 */
import { like, sql } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffMessages } from '../../contract/staff';
import {
  bundleMessages,
  PDF_BUNDLE_LIMIT,
  type PdfBundleStatus,
} from '../../contract/staffExports';
import { applicationPdfs, users } from '../../server/db/schema';
import { runInTenant } from '../../server/db/tenantScope';
import { readSourcesAndPdf } from '../../server/applicationPdf/sources';
import { applicationReference } from '../../server/applicationPdf';
import { sweepRetention } from '../../server/retention';
import { databaseKinds, registeredClient, startServer, type TestServer } from './harness';
import {
  adminWithApplicant,
  enrolledStaff,
  SOUTH_HOST,
  SOUTHFIELD,
  signIn,
  statusCounts,
  type SignedInStaff,
} from './staffHelpers';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The cap while the ZIP was built in memory (D169). */
const FORMER_LIMIT = 200;
/** What the bulk applications' stored PDF holds: the ZIP copies a current stored PDF as it is. */
const STORED_PDF = Buffer.from('%PDF-1.7\n%stored for the bulk applications\n%%EOF\n');

describe.each(databaseKinds)('the ZIP of PDFs on %s', (database) => {
  let server: TestServer;
  let admin: SignedInStaff;
  let adaId: string;
  let graceId: string;

  /** Polls a bundle until it is no longer building; returns every status seen. */
  async function untilBuilt(id: string): Promise<PdfBundleStatus[]> {
    const seen: PdfBundleStatus[] = [];
    for (let i = 0; i < 1200; i++) {
      const status = await admin.client.get<PdfBundleStatus>(`/staff/api/pdf-bundles/${id}`);
      expect(status.status).toBe(200);
      seen.push(status.body);
      if (status.body.state !== 'building') return seen;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the ZIP was not built');
  }
  const bundleAudits = async () =>
    (
      (await admin.client.get('/staff/api/audit?what=application.pdf_bundle')).body.rows as {
        detail: string;
      }[]
    ).map((row) => row.detail);

  /**
   * Gives every bulk application a current stored PDF, as a submitted one has, so the set streams
   * 201 entries while Chromium prints only Ada's and Grace's (199 prints took a minute per database).
   */
  async function storedPdfsForBulk() {
    const { documents, tenants } = server.built;
    const definitions = tenants.get('northfield')?.definitionAt;
    if (!definitions) throw new Error('northfield has no definition');
    const pdfKey = 'northfield/pdfs/bulk-stored.pdf';
    await documents.storage.put(pdfKey, STORED_PDF, 'application/pdf');
    await runInTenant('northfield', async () => {
      const bulk = await documents.db
        .select({ userId: users.id })
        .from(users)
        .where(like(users.email, 'many%@example.com'));
      const now = new Date();
      for (const { userId } of bulk) {
        const user = { tenantId: 'northfield', userId };
        const { sources } = await readSourcesAndPdf(documents, user, definitions);
        await documents.db.insert(applicationPdfs).values({
          ...user,
          status: 'COMPLETED',
          pdfKey,
          source: sources.digest,
          requestedAt: now,
          updatedAt: now,
        });
      }
    });
  }

  beforeAll(async () => {
    server = await startServer({
      database,
      config: { jobs: { pollMs: 50, leaseMs: 120_000 } },
      tenants: [SOUTHFIELD],
    });
    ({ admin, applicantId: adaId } = await adminWithApplicant(
      server,
      'dean@northfield.edu',
      'ada@example.com',
    ));
    const grace = await registeredClient(server, 'grace@example.com');
    await grace.put('/api/answer', { first_name: 'Grace', last_name: 'Hopper' });
    const list = await admin.client.get('/staff/api/applications?q=grace');
    graceId = list.body.rows[0].id as string;
  }, 120_000);
  afterAll(async () => server?.close());

  it('builds the filtered set into one ZIP of <Last>-<First>-<reference>.pdf, with progress, audited once', async () => {
    const started = await admin.client.post<PdfBundleStatus>(
      '/staff/api/pdf-bundles?sort=name',
      {},
    );
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ state: 'building', done: 0, total: 2 });
    expect(started.body.file_name).toMatch(
      /^applications-northfield-all-\d{4}-\d\d-\d\d-pdfs\.zip$/,
    );
    const early = await admin.client.get(`/staff/api/pdf-bundles/${started.body.id}/zip`);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(bundleMessages.notReady);

    const seen = await untilBuilt(started.body.id);
    expect(seen.at(-1)).toMatchObject({ state: 'ready', done: 2, total: 2 });
    const done = seen.map((status) => status.done);
    expect(done).toEqual([...done].sort((a, b) => a - b));

    const zip = await admin.client.get(`/staff/api/pdf-bundles/${started.body.id}/zip`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toContain(started.body.file_name);
    const files = unzipSync(new Uint8Array(zip.bytes));
    expect(Object.keys(files).sort()).toEqual(
      [
        `Hopper-Grace-${applicationReference(graceId)}.pdf`,
        `Lovelace-Ada-${applicationReference(adaId)}.pdf`,
      ].sort(),
    );
    for (const bytes of Object.values(files))
      expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    // One audit row for the whole download, none per application.
    expect(await bundleAudits()).toEqual([expect.stringMatching(/, 2 PDFs$/)]);
    const audit = await admin.client.get('/staff/api/audit?what=application.pdf');
    expect(audit.body.rows).toEqual([]);
  }, 180_000);

  it('follows the list’s filters; a set over the limit or an empty one is a 400 with our message', async () => {
    const one = await admin.client.post<PdfBundleStatus>('/staff/api/pdf-bundles?q=hopper', {});
    expect(one.body.total).toBe(1);
    expect((await untilBuilt(one.body.id)).at(-1)?.state).toBe('ready');
    const none = await admin.client.post('/staff/api/pdf-bundles?status=submitted', {});
    expect(none.status).toBe(400);
    expect(none.body.message).toBe(bundleMessages.empty);

    const db = server.built.database.db;
    const extra = PDF_BUNDLE_LIMIT;
    await runInTenant('northfield', () =>
      db.execute(sql`with made as (
          insert into users (tenant_id, email, password_hash, created_at)
          select 'northfield', 'bulk' || n || '@example.com', 'x', now() from generate_series(1, ${extra}) n
          returning id)
        insert into applications (tenant_id, user_id, updated_at)
        select 'northfield', id, now() from made`),
    );
    const over = await admin.client.post('/staff/api/pdf-bundles', {});
    expect(over.status).toBe(400);
    expect(over.body.message).toBe(bundleMessages.tooMany(extra + 2));
    await runInTenant('northfield', () =>
      db.execute(sql`delete from users where email like 'bulk%@example.com'`),
    );
  }, 180_000);

  it('a set over the former cap of 200 is one ZIP of every PDF, named apart, with its progress', async () => {
    const db = server.built.database.db;
    const bulk = FORMER_LIMIT + 1 - 2;
    await runInTenant('northfield', () =>
      db.execute(sql`with made as (
          insert into users (tenant_id, email, password_hash, created_at)
          select 'northfield', 'many' || n || '@example.com', 'x', now() from generate_series(1, ${bulk}) n
          returning id)
        insert into applications (tenant_id, user_id, answers, updated_at)
        select 'northfield', id, jsonb_build_object('first_name', 'Many', 'last_name', 'Applicant'), now()
        from made`),
    );
    try {
      await storedPdfsForBulk();
      const started = await admin.client.post<PdfBundleStatus>('/staff/api/pdf-bundles', {});
      expect(started.status).toBe(202);
      expect(started.body.total).toBe(FORMER_LIMIT + 1);
      const seen = await untilBuilt(started.body.id);
      expect(seen.at(-1)).toMatchObject({ state: 'ready', done: 201, total: 201 });
      const zip = await admin.client.get(`/staff/api/pdf-bundles/${started.body.id}/zip`);
      expect(zip.status).toBe(200);
      expect(Number(zip.headers.get('content-length'))).toBe(zip.bytes.byteLength);
      const files = unzipSync(new Uint8Array(zip.bytes));
      const names = Object.keys(files);
      expect(names).toHaveLength(FORMER_LIMIT + 1);
      expect(names.filter((name) => name.startsWith('Applicant-Many-'))).toHaveLength(bulk);
      expect(names).toContain(`Lovelace-Ada-${applicationReference(adaId)}.pdf`);
      for (const bytes of Object.values(files))
        expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
      // The two people's PDFs were printed; the bulk's were their stored ones.
      const printed = Object.values(files).filter(
        (bytes) => !Buffer.from(bytes).equals(STORED_PDF),
      );
      expect(printed).toHaveLength(2);
    } finally {
      await runInTenant('northfield', () =>
        db.execute(sql`delete from users where email like 'many%@example.com'`),
      );
    }
  }, 600_000);

  it('a reader cannot start, follow or download one; the other college finds none of this one', async () => {
    const started = await admin.client.post<PdfBundleStatus>('/staff/api/pdf-bundles?q=ada', {});
    await untilBuilt(started.body.id);
    const reader = await enrolledStaff(server, 'reader@northfield.edu', 'reader');
    const south = await enrolledStaff(server, 'dean@southfield.edu', 'admin', SOUTH_HOST);
    for (const [method, path] of [
      ['POST', '/staff/api/pdf-bundles'],
      ['GET', `/staff/api/pdf-bundles/${started.body.id}`],
      ['GET', `/staff/api/pdf-bundles/${started.body.id}/zip`],
    ] as const) {
      const refused = await reader.client.request(method, path, method === 'POST' ? {} : undefined);
      expect(refused.status, path).toBe(403);
      expect(refused.body.message).toBe(staffMessages.forbidden);
      if (method === 'GET') {
        const elsewhere = await south.client.get(path);
        expect(elsewhere.status, path).toBe(404);
        expect(elsewhere.body.message).toBe(bundleMessages.noSuchBundle);
      }
    }
  }, 180_000);

  it('two started together are two honest ZIPs, each audited; retention removes them a day after', async () => {
    const before = (await bundleAudits()).length;
    const both = await Promise.all([
      admin.client.post<PdfBundleStatus>('/staff/api/pdf-bundles', {}),
      admin.client.post<PdfBundleStatus>('/staff/api/pdf-bundles', {}),
    ]);
    expect(statusCounts(both)).toEqual({ 202: 2 });
    const [first, second] = both.map((response) => response.body.id);
    expect(first).not.toBe(second);
    for (const id of [first, second])
      expect((await untilBuilt(id as string)).at(-1)).toMatchObject({ state: 'ready', done: 2 });
    expect((await bundleAudits()).length - before).toBe(2);

    server.clock.advance(DAY_MS + 60_000);
    await sweepRetention(server.built.documents, ['northfield']);
    admin = { ...admin, client: await signIn(server, 'dean@northfield.edu', admin.secret) };
    for (const id of [first, second]) {
      const gone = await admin.client.get(`/staff/api/pdf-bundles/${id as string}/zip`);
      expect(gone.status).toBe(404);
    }
  }, 240_000);
});
