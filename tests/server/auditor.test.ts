/**
 * The auditor's test (D150, D154): an applicant saves a known SSN, alien number and conviction
 * comment, uploads a document carrying a known marker and submits; then every byte the platform
 * keeps is read (every file under DATA_DIR: the embedded database with its write-ahead log, the
 * stored objects, the outbox; on PostgreSQL a `pg_dump` too) and none of the values is found, while
 * the applicant, the staff and the PDF still show them.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validApplication } from '../definitions/fixtures';
import { pdfPagesText, squeeze } from '../fixtures/pdfText';
import { KNOWN_SENSITIVE, KNOWN_VALUES } from '../fixtures/sensitiveAnswers';
import { SEALED_OBJECT_MAGIC } from '../../server/crypto/objectSeal';
import { png, pngChunk } from './documentFiles';
import { submitFile, waitForPdf } from './documentUploads';
import { databaseKinds, registeredClient, startServer, type TestServer } from './harness';
import { enrolledStaff } from './staffHelpers';

const run = promisify(execFile);

/** Every file under `dir`, with its bytes. */
async function everyFile(dir: string): Promise<{ file: string; bytes: Buffer }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return { file, bytes: await readFile(file) };
      }),
  );
}

/** The files (or dumps) holding `text` in UTF-8. */
function holding(files: { file: string; bytes: Buffer }[], text: string): string[] {
  return files.filter(({ bytes }) => bytes.includes(Buffer.from(text, 'utf8'))).map((f) => f.file);
}

/** A non-sensitive answer saved beside them: the reads below do see the stored rows. */
const VISIBLE_MARKER = 'Quillfeather-Visible';

/** Carried in clear by the uploaded scan (a PNG text chunk). */
const DOCUMENT_MARKER = 'AUDITOR-MARKER-7731';

/** A PNG holding the marker in a text chunk, before its end. */
function markedPng(): Buffer {
  const plain = png(120, 80);
  const end = plain.length - 12;
  const text = pngChunk('tEXt', Buffer.from(`Comment\u0000${DOCUMENT_MARKER}`, 'latin1'));
  return Buffer.concat([plain.subarray(0, end), text, plain.subarray(end)]);
}

describe.each(databaseKinds)('the auditor reads every stored byte on %s', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      database,
      onDisk: database === 'pglite',
      config: { jobs: { pollMs: 50, leaseMs: 120_000 } },
    });
  }, 120_000);
  afterAll(async () => server?.close());

  it('finds none of the sensitive values, while the applicant and the PDF still show them', async () => {
    const applicant = await registeredClient(server, 'audited@example.com');
    const answers = {
      ...validApplication,
      ...KNOWN_SENSITIVE,
      // A permanent resident: the SSN and the alien registration number are both asked.
      citizenship_type: '2',
      birth_country: 'MEX',
      middle_name: VISIBLE_MARKER,
    };
    // First alone: a small row is stored as it is (a large one may be compressed), as the issue found.
    expect(
      (await applicant.put('/api/answer', { ...KNOWN_SENSITIVE, middle_name: VISIBLE_MARKER }))
        .status,
    ).toBe(200);
    expect((await applicant.put('/api/answer', answers)).status).toBe(200);
    expect((await applicant.get('/api/profile')).body.answer).toMatchObject(KNOWN_SENSITIVE);
    const scan = markedPng();
    expect(scan.includes(DOCUMENT_MARKER)).toBe(true);
    const { presigned, settled } = await submitFile(server, applicant, 'scan.png', scan);
    expect(settled.status).toBe('COMPLETED');
    const submitted = await applicant.post('/api/submit', {});
    expect(submitted.status).toBe(200);

    const ready = await waitForPdf(applicant);
    expect(ready.status).toBe('COMPLETED');
    const pdf = await applicant.get(ready.url as string);
    const printed = squeeze((await pdfPagesText(new Uint8Array(pdf.bytes))).join('\n'));
    expect(printed).toContain(squeeze(KNOWN_SENSITIVE.conviction_comment));
    expect(printed).toContain('***-**-6789');

    const stored = [];
    if (database === 'pglite') {
      // Written through to the data directory's files (tables and WAL), as a copied disk holds them.
      await server.built.database.pglite?.query('CHECKPOINT');
    } else {
      // As an operator's backup holds it: the whole database, dumped by its administrator.
      const admin = new URL(process.env.TEST_DATABASE_ADMIN_URL as string);
      admin.pathname = new URL(server.databaseUrl as string).pathname;
      const { stdout } = await run('pg_dump', ['--no-owner', admin.toString()], {
        maxBuffer: 256 * 1024 * 1024,
      });
      stored.push({ file: 'pg_dump', bytes: Buffer.from(stdout, 'utf8') });
    }
    stored.push(...(await everyFile(server.dataDir)));
    if (database === 'pglite')
      expect(stored.some(({ file }) => file.includes(`${path.sep}pg_wal${path.sep}`))).toBe(true);
    // The reads see the stored answers: the non-sensitive one is there in clear.
    expect(holding(stored, VISIBLE_MARKER).length).toBeGreaterThan(0);
    for (const value of [...KNOWN_VALUES, KNOWN_SENSITIVE.ssn.replace(/\D/g, '')])
      expect(holding(stored, value), value).toEqual([]);
    expect(holding(stored, DOCUMENT_MARKER)).toEqual([]);
    // Every object (the scan, its conversion, the application PDF) is sealed (D154)...
    const objects = stored.filter(({ file }) =>
      file.startsWith(path.join(server.dataDir, 'objects') + path.sep),
    );
    expect(objects.length).toBeGreaterThanOrEqual(3);
    for (const { file, bytes } of objects)
      expect(bytes.subarray(0, SEALED_OBJECT_MAGIC.length).equals(SEALED_OBJECT_MAGIC), file).toBe(
        true,
      );
    // ...and read back as it was uploaded, by the staff too.
    const storage = server.built.documents.storage;
    expect((await storage.get(presigned.fields.key))?.equals(scan)).toBe(true);
    expect((await storage.exists(presigned.fields.key))?.size).toBe(scan.length);
    const reader = await enrolledStaff(server, 'auditor-reader@northfield.edu', 'reader');
    const applicantId = presigned.fields.key.split('/')[1] as string;
    const document = await reader.client.get(
      `/staff/api/applications/${applicantId}/documents/transcript_file`,
    );
    expect(document.status).toBe(200);
    expect(document.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const staffPdf = await reader.client.get(`/staff/api/applications/${applicantId}/pdf`);
    expect(staffPdf.status).toBe(200);
    expect(staffPdf.bytes.equals(pdf.bytes)).toBe(true);
  }, 180_000);
});
