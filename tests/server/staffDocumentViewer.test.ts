/**
 * The console's document viewer (D174) on the server's side: the converted document is answered
 * inline under its file name and may be framed by the console's own pages, nothing else; every
 * other response keeps its frame denial. Each opening stays one audited read, also in a burst, and
 * another college's staff still find no such document.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from './documentFiles';
import { submitFile } from './documentUploads';
import { databaseKinds, startServer, type Response, type TestServer } from './harness';
import { clientFixture, expectBaseHeaders } from './headerChecks';
import {
  adminWithApplicant,
  enrolledStaff,
  SOUTH_HOST,
  SOUTHFIELD,
  type SignedInStaff,
} from './staffHelpers';

const BURST = 12;

describe.each(databaseKinds)('the staff document viewer on %s', (database) => {
  let server: TestServer;
  let clientDir: string;
  let admin: SignedInStaff;
  let applicantId: string;
  const documentPath = () => `/staff/api/applications/${applicantId}/documents/transcript_file`;

  /** The admin's audit rows of document reads of the applicant. */
  const documentReads = async () => {
    const audit = await admin.client.get(
      `/staff/api/audit?what=application.document&applicant=${applicantId}&size=100`,
    );
    expect(audit.status).toBe(200);
    return (audit.body.rows as unknown[]).length;
  };

  beforeAll(async () => {
    clientDir = await clientFixture();
    server = await startServer({ database, tenants: [SOUTHFIELD], config: { clientDir } });
    let applicant;
    ({ admin, applicant, applicantId } = await adminWithApplicant(
      server,
      'dean@northfield.edu',
      'ada@example.com',
    ));
    const { settled } = await submitFile(server, applicant, 'Transcript scan.png', png());
    expect(settled.status).toBe('COMPLETED');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await rm(clientDir, { recursive: true, force: true });
  });

  it('answers the document inline under its name, framable by the console itself only', async () => {
    const document = await admin.client.get(documentPath());
    expect(document.status).toBe(200);
    expect(document.headers.get('content-type')).toBe('application/pdf');
    expect(document.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(document.headers.get('content-disposition')).toMatch(
      /^inline; filename="Transcript scan\.pdf"/,
    );
    expect(document.headers.get('content-security-policy')).toBe("sandbox; frame-ancestors 'self'");
    expect(document.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(document.headers.get('cache-control')).toBe('no-store');
    expect(document.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('keeps every other response unframable, the console page and the application PDF too', async () => {
    const responses: [string, Response][] = [
      ['console page', await admin.client.get(`/staff/applications/${applicantId}`)],
      ['application view', await admin.client.get(`/staff/api/applications/${applicantId}`)],
      ['missing document', await admin.client.get(documentPath().replace(/[^/]+$/, 'essay_file'))],
      ['signed out', await server.client().get(documentPath())],
    ];
    for (const [label, response] of responses) expectBaseHeaders(response, label);
    // The console page frames its own origin through default-src 'self' (no frame-src widens it).
    const page = responses[0]![1].headers.get('content-security-policy') ?? '';
    expect(page).not.toMatch(/frame-src|child-src/);
    let pdf = await admin.client.get(`/staff/api/applications/${applicantId}/pdf`);
    for (let i = 0; i < 300 && pdf.status === 202; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      pdf = await admin.client.get(`/staff/api/applications/${applicantId}/pdf`);
    }
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(pdf.headers.get('content-security-policy')).toBe('sandbox');
    expect(pdf.headers.get('x-frame-options')).toBe('DENY');
  }, 90_000);

  it('audits each opening once, a burst of openings once each', async () => {
    const before = await documentReads();
    expect((await admin.client.get(documentPath())).status).toBe(200);
    expect(await documentReads()).toBe(before + 1);
    const burst = await Promise.all(
      Array.from({ length: BURST }, () => admin.client.get(documentPath())),
    );
    expect(burst.map((response) => response.status)).toEqual(Array(BURST).fill(200));
    expect(await documentReads()).toBe(before + 1 + BURST);
    // The log names the document by its question, not by its key or the file's name.
    const audit = await admin.client.get(
      `/staff/api/audit?what=application.document&applicant=${applicantId}`,
    );
    expect(audit.body.rows[0]).toMatchObject({ detail: 'Unofficial Transcript' });
  });

  it('lets a reader open it; another college finds no such document', async () => {
    const reader = await enrolledStaff(server, 'reader@northfield.edu', 'reader');
    expect((await reader.client.get(documentPath())).status).toBe(200);
    const south = await enrolledStaff(server, 'dean@southfield.edu', 'admin', SOUTH_HOST);
    const foreign = await south.client.get(documentPath());
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get('x-frame-options')).toBe('DENY');
    expect(typeof foreign.body.message).toBe('string');
  });
});
