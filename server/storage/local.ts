/**
 * Local-disk storage under DATA_DIR/objects, with the presigned-POST protocol implemented by the server
 * itself: the fields carry the key, a policy (key, expiry, types, size range) and its HMAC-SHA256
 * signature; the upload endpoint (server/storage/uploadRoute.ts) checks them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomToken } from '../secrets';
import { UPLOAD_POLICY, type ObjectStorage, type PresignedPost } from './storage';

export const UPLOAD_PATH = '/api/uploads';

export interface UploadPolicy {
  readonly key: string;
  /** Epoch milliseconds. */
  readonly expires: number;
  readonly contentTypes: readonly string[];
  readonly minBytes: number;
  readonly maxBytes: number;
}

export class LocalStorage implements ObjectStorage {
  readonly root: string;

  constructor(
    dataDir: string,
    private readonly secret: Buffer,
    private readonly now: () => Date,
  ) {
    this.root = path.resolve(dataDir, 'objects');
  }

  /** The file of a key; throws for a key that would leave the root. */
  private file(key: string): string {
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep) || key.includes('\0'))
      throw new Error('object key outside the storage root');
    return file;
  }

  async put(key: string, bytes: Uint8Array, _contentType?: string): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomToken(6)}.part`;
    await writeFile(temporary, bytes, { mode: 0o600 });
    await rename(temporary, file);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.file(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  async exists(key: string): Promise<{ size: number } | null> {
    try {
      const info = await stat(this.file(key));
      return info.isFile() ? { size: info.size } : null;
    } catch {
      return null;
    }
  }

  sign(policy: string): string {
    return createHmac('sha256', this.secret).update(policy, 'utf8').digest('base64url');
  }

  async presignPost(key: string): Promise<PresignedPost> {
    const policy: UploadPolicy = {
      key,
      expires: this.now().getTime() + UPLOAD_POLICY.expiresInSeconds * 1000,
      contentTypes: UPLOAD_POLICY.contentTypes,
      minBytes: UPLOAD_POLICY.minBytes,
      maxBytes: UPLOAD_POLICY.maxBytes,
    };
    const encoded = Buffer.from(JSON.stringify(policy), 'utf8').toString('base64url');
    return { url: UPLOAD_PATH, fields: { key, policy: encoded, signature: this.sign(encoded) } };
  }

  /** The policy of a signed form, or why it is refused. */
  verify(
    fields: Record<string, string>,
  ): { ok: true; policy: UploadPolicy } | { ok: false; reason: 'refused' | 'expired' } {
    const { policy: encoded, signature, key } = fields;
    if (!encoded || !signature || !key) return { ok: false, reason: 'refused' };
    const expected = Buffer.from(this.sign(encoded));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      return { ok: false, reason: 'refused' };
    let policy: UploadPolicy;
    try {
      policy = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as UploadPolicy;
    } catch {
      return { ok: false, reason: 'refused' };
    }
    if (policy.key !== key) return { ok: false, reason: 'refused' };
    if (!(policy.expires > this.now().getTime())) return { ok: false, reason: 'expired' };
    return { ok: true, policy };
  }
}
