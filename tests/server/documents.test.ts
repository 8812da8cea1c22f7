/**
 * Documents end to end against the real server: presigned upload to the local endpoint, conversion
 * through the job worker, status transitions, document answers, deletion, rejected uploads and
 * conversions, and isolation between applicants and tenants.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentMessages, serverMessages } from '../../contract';
import {
  activePdf,
  docx,
  docxBomb,
  encryptedPdf,
  exe,
  externalImageDocx,
  jpeg,
  png,
  pdf,
} from './documentFiles';
import { KEY, presign, submitFile, upload, waitForSettled } from './documentUploads';
import {
  databaseKinds,
  registeredClient,
  startServer,
  type Client,
  type TestServer,
} from './harness';

async function storedFiles(server: TestServer): Promise<string[]> {
  const root = path.join(server.dataDir, 'objects');
  try {
    return (await readdir(root, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
  } catch {
    return [];
  }
}

describe.each(databaseKinds)('documents on %s', (database) => {
  let server: TestServer;
  let applicant: Client;
  beforeAll(async () => {
    server = await startServer({
      database,
      config: { jobs: { pollMs: 50, leaseMs: 120_000 } },
      tenants: [
        {
          id: 'southfield',
          name: 'Southfield',
          definitionId: 'northfield-undergraduate',
          hosts: ['southfield.test'],
        },
      ],
    });
    applicant = await registeredClient(server, 'docs@example.com');
  }, 60_000);
  afterAll(async () => server?.close());

  it('answers 401 to every document call without a session', async () => {
    const anonymous = server.client();
    const calls: [string, string][] = [
      ['POST', '/api/presigned-url'],
      ['GET', '/api/document-answer'],
      ['DELETE', `/api/document-answer/${KEY}`],
      ['POST', `/api/pdf/document-answer/${KEY}`],
      ['GET', `/api/pdf/document-answer/${KEY}`],
      ['DELETE', `/api/pdf/document-answer/${KEY}`],
    ];
    for (const [method, pathname] of calls) {
      const response = await anonymous.request(method, pathname, method === 'GET' ? undefined : {});
      expect(response.status, `${method} ${pathname}`).toBe(401);
      expect(response.body).toEqual({ message: serverMessages.sessionRequired });
    }
  });

  it('presigns only file questions, with a key under the tenant, applicant and question', async () => {
    const refused = await applicant.post('/api/presigned-url', { answer_key: 'first_name' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(documentMessages.notFileQuestion('first_name'));
    const traversal = await applicant.post('/api/presigned-url', { answer_key: '../../etc' });
    expect(traversal.status).toBe(400);

    const presigned = await presign(applicant);
    expect(presigned.url).toBe('/api/uploads');
    expect(presigned.fields.key).toMatch(
      /^northfield\/[0-9a-f-]{36}\/transcript_file\/[0-9a-f]{32}$/,
    );
    const policy = JSON.parse(Buffer.from(presigned.fields.policy!, 'base64url').toString('utf8'));
    expect(policy).toMatchObject({ key: presigned.fields.key, minBytes: 1, maxBytes: 1_048_576 });
    expect(policy.expires - server.clock.now().getTime()).toBeLessThanOrEqual(10 * 60 * 1000);
  });

  it.each([
    ['transcript.png', () => png(120, 80)],
    ['transcript.jpg', () => jpeg(640, 480)],
    ['transcript.jpeg', () => jpeg(32, 32)],
    ['transcript.pdf', () => pdf('Transcript', 2)],
    ['statement.docx', () => docx()],
  ])(
    'converts %s to a stored PDF, lists it, and deletes it',
    async (name, make) => {
      const bytes = await make();
      const { presigned, settled } = await submitFile(server, applicant, name, bytes);
      expect(settled).toEqual({
        status: 'COMPLETED',
        message: documentMessages.completed,
        error: null,
      });
      const answers = await applicant.get('/api/document-answer');
      expect(answers.body).toEqual({ [KEY]: { file_name: name, file_size: bytes.length } });
      expect((await applicant.get('/api/profile')).body.document_answer).toEqual(answers.body);

      const stored = await server.built.documents.storage.get(
        `converted/${presigned.fields.key}.pdf`,
      );
      expect(stored).not.toBeNull();
      const converted = await PDFDocument.load(stored!);
      expect(converted.getPageCount()).toBe(name.endsWith('.pdf') ? 2 : 1);
      const [width, height] = [converted.getPage(0).getWidth(), converted.getPage(0).getHeight()];
      expect([Math.round(width), Math.round(height)]).toEqual([612, 792]);

      // Delete as the tab switch does: the conversion first, then the document answer.
      expect(
        (await applicant.request('DELETE', `/api/pdf/document-answer/${KEY}`, {})).status,
      ).toBe(204);
      expect((await applicant.get(`/api/pdf/document-answer/${KEY}`)).body).toEqual({
        status: 'NOT_ANSWERED',
        message: documentMessages.notAnswered,
        error: null,
      });
      expect((await applicant.request('DELETE', `/api/document-answer/${KEY}`, {})).status).toBe(
        204,
      );
      expect((await applicant.get('/api/document-answer')).body).toEqual({});
      expect(await storedFiles(server)).toEqual([]);
    },
    60_000,
  );

  it('replaces an earlier file: one answer, the old objects removed', async () => {
    await submitFile(server, applicant, 'first.png', png());
    const second = await submitFile(server, applicant, 'second.pdf', await pdf());
    expect(second.settled.status).toBe('COMPLETED');
    expect((await applicant.get('/api/document-answer')).body).toEqual({
      [KEY]: { file_name: 'second.pdf', file_size: expect.any(Number) },
    });
    const files = await storedFiles(server);
    expect(files.sort()).toEqual(
      [second.presigned.fields.key, `converted/${second.presigned.fields.key}.pdf`].sort(),
    );
    await applicant.request('DELETE', `/api/document-answer/${KEY}`, {});
    expect(await storedFiles(server)).toEqual([]);
  });

  describe('the upload endpoint refuses', () => {
    it('an empty file', async () => {
      const result = await upload(server, await presign(applicant), [
        { name: 'a.pdf', bytes: Buffer.alloc(0) },
      ]);
      expect(result).toEqual({ status: 400, body: { message: documentMessages.empty } });
    });

    it('a file over 1 MB', async () => {
      const result = await upload(server, await presign(applicant), [
        { name: 'a.pdf', bytes: Buffer.alloc(1_048_577, 0x25) },
      ]);
      expect(result).toEqual({ status: 413, body: { message: documentMessages.tooLarge } });
    });

    it('accepts exactly 1 MB', async () => {
      const bytes = Buffer.concat([await pdf(), Buffer.alloc(1_048_576)]).subarray(0, 1_048_576);
      const presigned = await presign(applicant);
      const result = await upload(server, presigned, [{ name: 'a.pdf', bytes }]);
      expect(result.status).toBe(204);
      expect(await server.built.documents.storage.exists(presigned.fields.key)).toEqual({
        size: 1_048_576,
      });
      await server.built.documents.storage.delete(presigned.fields.key);
    });

    it('a second file', async () => {
      const result = await upload(server, await presign(applicant), [
        { name: 'a.png', bytes: png() },
        { name: 'b.png', bytes: png() },
      ]);
      expect(result).toEqual({ status: 400, body: { message: documentMessages.oneFile } });
      expect(await storedFiles(server)).toEqual([]);
    });

    it('a form without a file', async () => {
      const result = await upload(server, await presign(applicant), []);
      expect(result).toEqual({ status: 400, body: { message: documentMessages.uploadNoFile } });
    });

    it('a tampered policy', async () => {
      const presigned = await presign(applicant);
      const policy = JSON.parse(Buffer.from(presigned.fields.policy!, 'base64url').toString());
      policy.maxBytes = 50_000_000;
      const forged = Buffer.from(JSON.stringify(policy)).toString('base64url');
      const result = await upload(server, presigned, [{ name: 'a.png', bytes: png() }], {
        policy: forged,
      });
      expect(result).toEqual({ status: 403, body: { message: documentMessages.uploadRefused } });
    });

    it('a forged signature', async () => {
      const presigned = await presign(applicant);
      const result = await upload(server, presigned, [{ name: 'a.png', bytes: png() }], {
        signature: 'A'.repeat(43),
      });
      expect(result).toEqual({ status: 403, body: { message: documentMessages.uploadRefused } });
    });

    it('a different key, including one that climbs out of the prefix', async () => {
      const presigned = await presign(applicant);
      for (const key of [
        presigned.fields.key.replace(/[0-9a-f]{32}$/, 'f'.repeat(32)),
        `${presigned.fields.key}/../../../../other`,
        '../../outside',
      ]) {
        const result = await upload(server, presigned, [{ name: 'a.png', bytes: png() }], {
          key,
        });
        expect(result).toEqual({ status: 403, body: { message: documentMessages.uploadRefused } });
      }
      expect(await storedFiles(server)).toEqual([]);
    });

    it('an expired policy', async () => {
      const presigned = await presign(applicant);
      server.clock.advance(10 * 60 * 1000 + 1);
      const result = await upload(server, presigned, [{ name: 'a.png', bytes: png() }]);
      expect(result).toEqual({ status: 403, body: { message: documentMessages.uploadExpired } });
    });

    it('a field the policy does not cover, and a type outside it', async () => {
      const presigned = await presign(applicant);
      const extra = await upload(server, presigned, [{ name: 'a.png', bytes: png() }], {
        acl: 'public-read',
      });
      expect(extra).toEqual({ status: 403, body: { message: documentMessages.uploadRefused } });
      const html = await upload(server, presigned, [
        { name: 'a.html', bytes: Buffer.from('<script>1</script>'), type: 'text/html' },
      ]);
      expect(html).toEqual({ status: 400, body: { message: documentMessages.wrongType } });
    });
  });

  describe('the conversion request re-runs the file checks of SPEC 5.6', () => {
    async function request(name: string, bytes: Buffer) {
      const presigned = await presign(applicant);
      expect((await upload(server, presigned, [{ name, bytes, type: 'image/png' }])).status).toBe(
        204,
      );
      return applicant.post(`/api/pdf/document-answer/${KEY}`, {
        file_key: presigned.fields.key,
        file_name: name,
      });
    }

    it('refuses a name of 33 characters and accepts 32', async () => {
      const long = `${'a'.repeat(29)}.png`;
      expect(long).toHaveLength(33);
      const refused = await request(long, png());
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(documentMessages.nameTooLong);
      const accepted = await request(`${'a'.repeat(28)}.png`, png());
      expect(accepted.status).toBe(202);
      expect((await waitForSettled(applicant)).status).toBe('COMPLETED');
      await applicant.request('DELETE', `/api/document-answer/${KEY}`, {});
    });

    it.each([
      ['../../etc/passwd.png', documentMessages.badName],
      ['..\\..\\boot.png', documentMessages.badName],
      ['cv\u202Egnp.pdf', documentMessages.badName],
      // A NUL is refused by the body parser, before any route reads the name (D75).
      ['a.pdf\u0000.png', serverMessages.badRequest],
      ['a.pdf.html', documentMessages.wrongType],
      ['notes.txt', documentMessages.wrongType],
    ])('refuses the name %j', async (name, message) => {
      const response = await request(name, png());
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(message);
    });

    it('refuses a key the applicant was not given', async () => {
      for (const fileKey of ['../../etc/passwd', 'northfield/x/transcript_file/y', 'a/b/c/d/e']) {
        const response = await applicant.post(`/api/pdf/document-answer/${KEY}`, {
          file_key: fileKey,
          file_name: 'a.png',
        });
        expect(response.status).toBe(404);
        expect(response.body.message).toBe(documentMessages.uploadNotFound);
      }
    });

    it('refuses a question that is not a file question', async () => {
      const response = await applicant.post('/api/pdf/document-answer/first_name', {
        file_key: 'x',
        file_name: 'a.png',
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(documentMessages.notFileQuestion('first_name'));
    });
  });

  describe('conversion ends FAILED with a message for the applicant', () => {
    it.each([
      ['PNG bytes named .pdf', 'renamed.pdf', async () => png(), documentMessages.contentMismatch],
      ['an .exe named .docx', 'setup.docx', async () => exe(), documentMessages.contentMismatch],
      [
        'a PDF whose marker is not at the start',
        'late.pdf',
        async () => Buffer.concat([Buffer.from('junk '), await pdf()]),
        documentMessages.contentMismatch,
      ],
      ['an encrypted PDF', 'locked.pdf', encryptedPdf, documentMessages.pdfEncrypted],
      [
        'a broken PDF',
        'broken.pdf',
        async () => Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog'),
        documentMessages.pdfBroken,
      ],
      [
        'an image over 40 megapixels',
        'flood.jpg',
        async () => jpeg(8000, 6000),
        documentMessages.imageTooLarge,
      ],
      ['a docx that unpacks past 20 MB', 'bomb.docx', docxBomb, documentMessages.docxTooLarge],
      [
        'a docx with an external image',
        'linked.docx',
        externalImageDocx,
        documentMessages.docxExternal,
      ],
    ])('%s', async (_label, name, make, message) => {
      const bytes = await make();
      expect(bytes.length).toBeLessThanOrEqual(1_048_576);
      const { settled } = await submitFile(server, applicant, name, bytes);
      expect(settled).toEqual({ status: 'FAILED', message, error: message, file_name: name });
      expect((await applicant.get('/api/document-answer')).body).toEqual({});
      // Closing the toast deletes the conversion (SPEC 4.4).
      expect(
        (await applicant.request('DELETE', `/api/pdf/document-answer/${KEY}`, {})).status,
      ).toBe(204);
      expect((await applicant.get(`/api/pdf/document-answer/${KEY}`)).body.status).toBe(
        'NOT_ANSWERED',
      );
      await applicant.request('DELETE', `/api/document-answer/${KEY}`, {});
    });

    it('strips active content from a PDF', async () => {
      const bytes = await activePdf();
      expect(bytes.toString('latin1')).toContain('/JavaScript');
      const { presigned, settled } = await submitFile(server, applicant, 'active.pdf', bytes);
      expect(settled.status).toBe('COMPLETED');
      const output = (await server.built.documents.storage.get(
        `converted/${presigned.fields.key}.pdf`,
      ))!.toString('latin1');
      for (const marker of ['/JavaScript', '/JS', '/OpenAction', '/AA'])
        expect(output).not.toContain(marker);
      await applicant.request('DELETE', `/api/document-answer/${KEY}`, {});
    });
  });

  describe('isolation', () => {
    it('another applicant cannot convert, read or delete your file', async () => {
      const { presigned } = await submitFile(server, applicant, 'mine.png', png());
      const other = await registeredClient(server, 'other@example.com');
      const convert = await other.post(`/api/pdf/document-answer/${KEY}`, {
        file_key: presigned.fields.key,
        file_name: 'mine.png',
      });
      expect(convert.status).toBe(404);
      expect((await other.get(`/api/pdf/document-answer/${KEY}`)).body.status).toBe('NOT_ANSWERED');
      expect((await other.get('/api/document-answer')).body).toEqual({});
      expect((await other.request('DELETE', `/api/document-answer/${KEY}`, {})).status).toBe(204);
      expect((await other.request('DELETE', `/api/pdf/document-answer/${KEY}`, {})).status).toBe(
        204,
      );
      expect((await applicant.get(`/api/pdf/document-answer/${KEY}`)).body.status).toBe(
        'COMPLETED',
      );
      expect(Object.keys((await applicant.get('/api/document-answer')).body)).toEqual([KEY]);

      // The same e-mail address in another tenant is another applicant.
      const south = await registeredClient(
        server,
        'docs@example.com',
        undefined,
        'southfield.test',
      );
      const southConvert = await south.post(`/api/pdf/document-answer/${KEY}`, {
        file_key: presigned.fields.key,
        file_name: 'mine.png',
      });
      expect(southConvert.status).toBe(404);
      expect((await south.get('/api/document-answer')).body).toEqual({});
      const southKey = (await presign(south)).fields.key;
      expect(southKey.startsWith('southfield/')).toBe(true);
      await applicant.request('DELETE', `/api/document-answer/${KEY}`, {});
    });
  });
});
