/**
 * The S3 adapter against a real S3-compatible server started here (s3rver, pure npm): objects,
 * streamed ones in multipart uploads (D176), the presigned POST's policy, a browser-style form upload, and the whole document chain with
 * STORAGE=s3. s3rver stores POST uploads but does not enforce POST policies; the policy's content is
 * checked here, and S3 enforces it in production (docs/decisions/ D32).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentMessages } from '../../contract';
import { S3Storage } from '../../server/storage/s3';
import { png } from './documentFiles';
import { registeredClient, startServer, type TestServer } from './harness';

const BUCKET = 'admission-uploads';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

describe('S3 storage', () => {
  let s3: S3rver;
  let endpoint: string;
  let directory: string;
  let storage: S3Storage;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'admission-s3-'));
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const address = await s3.run();
    endpoint = `http://127.0.0.1:${address.port}`;
    storage = new S3Storage({ bucket: BUCKET, region: 'us-east-1', endpoint, ...CREDENTIALS });
  });
  afterAll(async () => {
    await s3?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('puts, reads, sizes and deletes objects', async () => {
    const key = 'northfield/u/transcript_file/abc';
    expect(await storage.exists(key)).toBeNull();
    expect(await storage.get(key)).toBeNull();
    await storage.put(key, Buffer.from('hello'), 'text/plain');
    expect(await storage.exists(key)).toEqual({ size: 5 });
    expect((await storage.get(key))?.toString()).toBe('hello');
    await storage.delete(key);
    expect(await storage.exists(key)).toBeNull();
  });

  it('streams an object in as parts of 5 MiB and out again; a source that fails stores nothing', async () => {
    const bytes = randomBytes(11 * 1024 * 1024 + 17);
    async function* pieces(fail: boolean) {
      for (let at = 0; at < bytes.length; at += 300_000) {
        if (fail && at > 6 * 1024 * 1024) throw new Error('the source failed');
        yield bytes.subarray(at, at + 300_000);
      }
    }
    const key = 'northfield/pdf-bundles/streamed.zip';
    await storage.putStream(key, pieces(false), 'application/zip');
    expect(await storage.exists(key)).toEqual({ size: bytes.length });
    const object = await storage.getStream(key);
    expect(object?.size).toBe(bytes.length);
    const chunks: Buffer[] = [];
    for await (const chunk of object!.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    expect((await storage.get(key))?.equals(bytes)).toBe(true);

    const failed = 'northfield/pdf-bundles/failed.zip';
    await expect(storage.putStream(failed, pieces(true), 'application/zip')).rejects.toThrow(
      'the source failed',
    );
    expect(await storage.exists(failed)).toBeNull();
    expect(await storage.getStream(failed)).toBeNull();
  });

  it('presigns a POST fixed to the key and 1 B .. 1 MB for 10 minutes, and takes the form upload', async () => {
    const key = 'northfield/u/transcript_file/presigned';
    const presigned = await storage.presignPost(key);
    expect(presigned.url).toBe(`${endpoint}/${BUCKET}`);
    expect(presigned.fields.key).toBe(key);
    const policy = JSON.parse(Buffer.from(presigned.fields.Policy!, 'base64').toString('utf8')) as {
      expiration: string;
      conditions: unknown[];
    };
    expect(policy.conditions).toContainEqual(['eq', '$key', key]);
    expect(policy.conditions).toContainEqual(['content-length-range', 1, 1_048_576]);
    // Encrypted at rest by the store: the policy admits the upload only with SSE.
    expect(presigned.fields['x-amz-server-side-encryption']).toBe('AES256');
    expect(policy.conditions).toContainEqual(['eq', '$x-amz-server-side-encryption', 'AES256']);
    expect(new Date(policy.expiration).getTime() - Date.now()).toBeLessThanOrEqual(600_000);

    const form = new FormData();
    for (const [name, value] of Object.entries(presigned.fields)) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(png())], { type: 'image/png' }), 'scan.png');
    const response = await fetch(presigned.url, { method: 'POST', body: form });
    expect(response.status).toBe(204);
    expect(await storage.exists(key)).toEqual({ size: png().length });
  });

  describe('the document chain with STORAGE=s3', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer({
        env: {
          STORAGE: 's3',
          S3_BUCKET: BUCKET,
          S3_ENDPOINT: endpoint,
          S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
          S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
        },
        config: { jobs: { pollMs: 50, leaseMs: 120_000 } },
      });
    }, 60_000);
    afterAll(async () => server?.close());

    it('uploads to the store, converts, lists and deletes', async () => {
      const applicant = await registeredClient(server, 's3@example.com');
      const presigned = (
        await applicant.post('/api/presigned-url', { answer_key: 'transcript_file' })
      ).body as { url: string; fields: Record<string, string> };
      expect(presigned.url.startsWith(endpoint)).toBe(true);
      const form = new FormData();
      for (const [name, value] of Object.entries(presigned.fields)) form.append(name, value);
      form.append('file', new Blob([new Uint8Array(png())], { type: 'image/png' }), 'scan.png');
      expect((await fetch(presigned.url, { method: 'POST', body: form })).status).toBe(204);
      // The local upload endpoint is not served when S3 takes the uploads.
      expect((await fetch(`${server.url}/api/uploads`, { method: 'POST' })).status).toBe(404);

      const key = presigned.fields.key as string;
      const queued = await applicant.post('/api/pdf/document-answer/transcript_file', {
        file_key: key,
        file_name: 'scan.png',
      });
      expect(queued.status).toBe(202);
      let body: Record<string, unknown> = {};
      for (let i = 0; i < 200; i++) {
        body = (await applicant.get('/api/pdf/document-answer/transcript_file')).body;
        if (body.status === 'COMPLETED' || body.status === 'FAILED') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(body).toEqual({
        status: 'COMPLETED',
        message: documentMessages.completed,
        error: null,
      });
      const converted = await storage.get(`converted/${key}.pdf`);
      expect((await PDFDocument.load(converted!)).getPageCount()).toBe(1);
      expect((await applicant.get('/api/document-answer')).body).toEqual({
        transcript_file: { file_name: 'scan.png', file_size: png().length },
      });
      await applicant.request('DELETE', '/api/document-answer/transcript_file', {});
      expect(await storage.exists(key)).toBeNull();
      expect(await storage.exists(`converted/${key}.pdf`)).toBeNull();
    });
  });
});
