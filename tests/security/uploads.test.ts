/**
 * SECURITY.md section 7, uploads: 7.24 presigned POST, 7.25 type confusion, 7.26 polyglots, against
 * the real server (local storage, the job worker, the conversion sandbox). Every hostile file is made
 * in tests/security/hostileFiles.ts.
 *
 * Proven elsewhere and not repeated here (tests/server/documents.test.ts › "the upload endpoint
 * refuses"): MAX+1 bytes → 413, a different key and keys with `../` → 403, an uncovered extra field
 * (`acl`) → 403, an expired policy → 403, a tampered policy or forged signature → 403, the local
 * policy's key and ≤ 10 min; (› "conversion ends FAILED…") `cv.pdf` holding PNG bytes; (› "refuses the
 * name %j") `a.pdf.html`, a name with U+202E, a NUL, `../` and `..\`. tests/server/documents.s3.test.ts
 * proves the S3 policy's `eq $key` and content-length-range.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentMessages } from '../../contract';
import type { LocalStorage } from '../../server/storage/local';
import { S3Storage } from '../../server/storage/s3';
import { isWellFormedKey, uploadKey } from '../../server/storage/storage';
import { png } from '../server/documentFiles';
import { registeredClient, startServer, type Client, type TestServer } from '../server/harness';
import {
  activeNamesIn,
  commentSegment,
  docxZip,
  jpegImage,
  pdfImageStreams,
  pngPdfPolyglot,
} from './hostileFiles';

const KEY = 'transcript_file';
const KEY_PATTERN = /^northfield\/[0-9a-f-]{36}\/transcript_file\/[0-9a-f]{32}$/;

interface Presigned {
  url: string;
  fields: Record<string, string> & { key: string };
}

type Part =
  [name: string, value: string] | [name: 'file', bytes: Buffer, fileName: string, type: string];

/** Posts a multipart form whose parts come in exactly the given order. */
async function post(server: TestServer, url: string, parts: Part[]) {
  const form = new FormData();
  for (const part of parts)
    if (part.length === 2) form.append(part[0], part[1]);
    else form.append('file', new Blob([new Uint8Array(part[1])], { type: part[3] }), part[2]);
  const response = await fetch(new URL(url, server.url), { method: 'POST', body: form });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as { message?: string }) : {} };
}

describe('SECURITY.md 7.24–7.26 uploads', () => {
  let server: TestServer;
  let applicant: Client;

  const presign = async (): Promise<Presigned> => {
    const response = await applicant.post<Presigned>('/api/presigned-url', { answer_key: KEY });
    expect(response.status).toBe(200);
    return response.body;
  };

  const storedFiles = async (): Promise<string[]> => {
    const root = path.join(server.dataDir, 'objects');
    try {
      return (await readdir(root, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
    } catch {
      return [];
    }
  };

  /** Presign, upload (with the multipart file name given), request the conversion, wait for it. */
  const convert = async (
    fileName: string,
    bytes: Buffer,
    type: string,
    uploadName = fileName,
  ): Promise<{ key: string; status: string; message: string }> => {
    const presigned = await presign();
    const uploaded = await post(server, presigned.url, [
      ...Object.entries(presigned.fields),
      ['file', bytes, uploadName, type],
    ] as Part[]);
    expect(uploaded.status).toBe(204);
    const queued = await applicant.post(`/api/pdf/document-answer/${KEY}`, {
      file_key: presigned.fields.key,
      file_name: fileName,
    });
    expect(queued.status).toBe(202);
    for (let i = 0; i < 400; i++) {
      const { body } = await applicant.get(`/api/pdf/document-answer/${KEY}`);
      if (body.status !== 'UNPROCESSED' && body.status !== 'IN_PROGRESS')
        return { key: presigned.fields.key, ...(body as { status: string; message: string }) };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('conversion did not settle');
  };

  const converted = async (key: string): Promise<Buffer> =>
    (await server.built.documents.storage.get(`converted/${key}.pdf`)) as Buffer;

  const clear = () => applicant.request('DELETE', `/api/document-answer/${KEY}`, {});

  beforeAll(async () => {
    server = await startServer({ config: { jobs: { pollMs: 50, leaseMs: 120_000 } } });
    applicant = await registeredClient(server, 'uploads@example.com');
  }, 60_000);
  afterAll(async () => server?.close());

  describe('7.24 presigned POST', () => {
    it('7.24 both adapters sign an exact key (never ${filename} or starts-with), 1 B .. 1 MB, ≤ 10 min', async () => {
      const key = uploadKey('northfield', '0f8e0c2a-8d5c-4c55-9f4e-5d2f1d7a6b11', KEY);
      const now = Date.now();
      // Local: the fields are the key, the policy and its signature, and nothing else.
      const local = await server.built.documents.storage.presignPost(key);
      expect(Object.keys(local.fields).sort()).toEqual(['key', 'policy', 'signature']);
      const policy = JSON.parse(Buffer.from(local.fields.policy!, 'base64url').toString('utf8'));
      expect(Object.keys(policy).sort()).toEqual([
        'contentTypes',
        'expires',
        'key',
        'maxBytes',
        'minBytes',
      ]);
      expect(policy).toMatchObject({ key, minBytes: 1, maxBytes: 1_048_576 });
      expect(policy.expires - server.clock.now().getTime()).toBeGreaterThan(0);
      expect(policy.expires - server.clock.now().getTime()).toBeLessThanOrEqual(600_000);

      // S3: signing needs no server; the policy is what the bucket would enforce.
      const s3 = new S3Storage({
        bucket: 'uploads',
        region: 'us-east-1',
        endpoint: 'http://127.0.0.1:9',
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      });
      const signed = await s3.presignPost(key);
      expect(signed.fields.key).toBe(key);
      const s3Policy = JSON.parse(
        Buffer.from(signed.fields.Policy!, 'base64').toString('utf8'),
      ) as {
        expiration: string;
        conditions: unknown[];
      };
      const text = JSON.stringify(s3Policy);
      expect(text).not.toContain('${filename}');
      expect(text).not.toContain('starts-with');
      expect(s3Policy.conditions).toContainEqual(['eq', '$key', key]);
      expect(s3Policy.conditions).toContainEqual({ key });
      expect(s3Policy.conditions).toContainEqual(['content-length-range', 1, 1_048_576]);
      const expiresIn = new Date(s3Policy.expiration).getTime() - now;
      expect(expiresIn).toBeGreaterThan(0);
      expect(expiresIn).toBeLessThanOrEqual(600_000 + 1000);
      // Every other form field the client must send is covered by an exact condition.
      for (const [name, value] of Object.entries(signed.fields)) {
        if (['Policy', 'X-Amz-Signature', 'key'].includes(name)) continue;
        expect(s3Policy.conditions, name).toContainEqual({ [name]: value });
      }
    });

    it('7.24 fields after the file, a repeated signed field, or an x-ignore- field are refused, and nothing is stored', async () => {
      const presigned = await presign();
      const fields = Object.entries(presigned.fields) as Part[];
      const file: Part = ['file', png(), 'a.png', 'image/png'];
      const cases: [string, Part[]][] = [
        ['a field after the file', [...fields, file, ['acl', 'public-read']]],
        ['the key again after the file', [...fields, file, ['key', '../../other']]],
        ['a repeated key', [...fields, ['key', presigned.fields.key], file]],
        ['an x-ignore- field', [...fields, ['x-ignore-note', 'x'], file]],
        ['a Content-Type field', [...fields, ['Content-Type', 'text/html'], file]],
      ];
      for (const [label, parts] of cases) {
        const result = await post(server, presigned.url, parts);
        expect(result.status, label).toBeGreaterThanOrEqual(400);
        expect(result.status, label).toBeLessThan(500);
        expect(result.body.message, label).toBe(documentMessages.uploadRefused);
      }
      expect(await storedFiles()).toEqual([]);
    });

    it('7.24 no key the server builds or the disk adapter accepts leaves its prefix or the storage root', async () => {
      const disk = server.built.documents.storage as LocalStorage;
      const segment = fc.string({ minLength: 1, maxLength: 12 });
      fc.assert(
        fc.property(segment, segment, segment, (tenant, user, question) => {
          let key: string;
          try {
            key = uploadKey(tenant, user, question);
          } catch {
            return true; // refused: not a plain segment
          }
          return key.startsWith(`${tenant}/${user}/${question}/`) && isWellFormedKey(key);
        }),
      );
      const climbing = fc.array(fc.constantFrom('..', '.', 'a', '', '/', '\\', '\0', '%2e%2e'), {
        minLength: 1,
        maxLength: 8,
      });
      await fc.assert(
        fc.asyncProperty(climbing, async (parts) => {
          const key = parts.join('/');
          const resolved = path.resolve(disk.root, key);
          const inside = resolved.startsWith(disk.root + path.sep) && !key.includes('\0');
          const read = await disk.get(key).then(
            () => 'read',
            () => 'refused',
          );
          return inside || read === 'refused';
        }),
      );
    });
  });

  describe('7.25 type confusion', () => {
    it('7.25 photo.png starting with %PDF- is refused', async () => {
      const document = await PDFDocument.create();
      document.addPage();
      const bytes = Buffer.from(await document.save());
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const result = await convert('photo.png', bytes, 'image/png');
      expect(result).toMatchObject({ status: 'FAILED', message: documentMessages.contentMismatch });
      await clear();
    });

    it.each([
      ['with no parts but the content types', {}],
      [
        'with word/styles.xml but no word/document.xml',
        { extra: { 'word/styles.xml': '<w:styles/>' } },
      ],
    ])('7.25 a .docx zip %s is refused', async (_label, parts) => {
      const result = await convert(
        'essay.docx',
        await docxZip(parts),
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      );
      expect(result).toMatchObject({ status: 'FAILED', message: documentMessages.docxBroken });
      await clear();
    });

    it.each([
      ['a.pdf%00.html', documentMessages.wrongType],
      ['a.pdf%00', documentMessages.wrongType],
      ['\u202Egnp.exe', documentMessages.wrongType],
      ['x\u202Efdp.docx', documentMessages.badName],
      ['.hidden.pdf', documentMessages.badName],
      ['-rf.pdf', documentMessages.badName],
      ['cv..pdf', documentMessages.badName],
    ])('7.25 the conversion request refuses the name %j', async (name, message) => {
      const presigned = await presign();
      const uploaded = await post(server, presigned.url, [
        ...(Object.entries(presigned.fields) as Part[]),
        ['file', png(), 'a.png', 'image/png'],
      ]);
      expect(uploaded.status).toBe(204);
      const response = await applicant.post(`/api/pdf/document-answer/${KEY}`, {
        file_key: presigned.fields.key,
        file_name: name,
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(message);
      // The refused upload is removed.
      expect(await storedFiles()).toEqual([]);
    });

    it('7.25 the stored objects are named by the server, never by the file name', async () => {
      const hostileName = '../../../../tmp/cv.pdf.html';
      const result = await convert('cv.png', png(), 'image/png', hostileName);
      expect(result.status).toBe('COMPLETED');
      expect(result.key).toMatch(KEY_PATTERN);
      const files = await storedFiles();
      expect(files.sort()).toEqual([result.key, `converted/${result.key}.pdf`].sort());
      for (const file of files) expect(file).not.toMatch(/cv|html|tmp|\.\./);
      await clear();
      expect(await storedFiles()).toEqual([]);
    });
  });

  describe('7.26 polyglots', () => {
    it('7.26 a PNG with %PDF-1.7 at byte 200 becomes a freshly encoded image; as cv.pdf it is refused', async () => {
      const image = png(200, 120);
      const polyglot = pngPdfPolyglot(image, 200);
      expect(polyglot.subarray(0, 8)).toEqual(image.subarray(0, 8));
      expect(activeNamesIn(polyglot)).toContain('JavaScript');

      const asPdf = await convert('cv.pdf', polyglot, 'application/pdf');
      expect(asPdf).toMatchObject({ status: 'FAILED', message: documentMessages.contentMismatch });
      await clear();

      const asPng = await convert('photo.png', polyglot, 'image/png');
      expect(asPng.status).toBe('COMPLETED');
      const output = await converted(asPng.key);
      expect(output.equals(polyglot)).toBe(false);
      expect(output.includes('polyglot-payload')).toBe(false);
      expect(activeNamesIn(output)).toEqual([]);
      // The image was decoded and its pixels written anew: not one of the input's chunks survives.
      const [embedded] = await pdfImageStreams(output);
      expect(embedded?.filter).toBe('/FlateDecode');
      const idat = image.subarray(image.indexOf('IDAT') + 4, image.indexOf('IEND') - 8);
      expect(output.includes(idat)).toBe(false);
      expect(output.includes(polyglot.subarray(8 + 25, 8 + 25 + 64))).toBe(false);
      await clear();
    });

    it('7.26 a JPEG+HTML polyglot becomes a JPEG without the HTML; the upload is never served back', async () => {
      const html = '<html><body><script>alert("jpeg-html-payload")</script></body></html>';
      const polyglot = jpegImage(320, 200, {
        segments: [commentSegment(html)],
        trailer: Buffer.from(html),
      });
      const result = await convert('photo.jpg', polyglot, 'image/jpeg');
      expect(result.status).toBe('COMPLETED');
      const output = await converted(result.key);
      expect(output.includes('jpeg-html-payload')).toBe(false);
      expect(output.includes('<script')).toBe(false);
      const [embedded] = await pdfImageStreams(output);
      expect(embedded?.filter).toBe('/DCTDecode');
      expect(embedded!.bytes.equals(polyglot)).toBe(false);
      expect(embedded!.bytes.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));

      // Nothing serves the uploaded or converted bytes: no route answers with them, as HTML or not.
      for (const url of [
        `/api/uploads/${result.key}`,
        `/objects/${result.key}`,
        `/${result.key}`,
        `/api/uploads?key=${encodeURIComponent(result.key)}`,
        `/converted/${result.key}.pdf`,
      ]) {
        const response = await fetch(new URL(url, server.url));
        const body = Buffer.from(await response.arrayBuffer());
        expect(body.includes('jpeg-html-payload'), url).toBe(false);
        expect(body.includes(Buffer.from([0xff, 0xd8, 0xff])), url).toBe(false);
      }
      await clear();
    });
  });
});
