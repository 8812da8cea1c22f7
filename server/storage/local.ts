/**
 * Local-disk storage under DATA_DIR/objects, with the presigned-POST protocol implemented by the server
 * itself: the fields carry the key, a policy (key, expiry, types, size range) and its HMAC-SHA256
 * signature; the upload endpoint (server/storage/uploadRoute.ts) checks them. Every object is
 * written sealed under its tenant's objects key (D154); a plain one stored before is still read.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  isSealedObject,
  plainObjectSize,
  readSealedObject,
  SEALED_OBJECT_MAGIC,
  writeSealedObject,
} from '../crypto/objectSeal';
import { randomToken } from '../secrets';
import { objectTenant, UPLOAD_POLICY, type ObjectStorage, type PresignedPost } from './storage';

/** The secret that seals a tenant's objects (the tenant's data key's objects key, D154). */
export type ObjectKeys = (tenantId: string) => Promise<Buffer>;

const PART = '.part';

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
    private readonly keys: ObjectKeys,
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

  private secretOf(key: string): Promise<Buffer> {
    return this.keys(objectTenant(key));
  }

  async put(key: string, bytes: Uint8Array, _contentType?: string): Promise<void> {
    const file = this.file(key);
    const secret = await this.secretOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomToken(6)}${PART}`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      await writeSealedObject(handle, secret, key, bytes);
    } catch (error) {
      await handle.close();
      await rm(temporary, { force: true });
      throw error;
    }
    await handle.close();
    await rename(temporary, file);
  }

  async get(key: string): Promise<Buffer | null> {
    let handle;
    try {
      handle = await open(this.file(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      const head = Buffer.alloc(SEALED_OBJECT_MAGIC.length);
      await handle.read(head, 0, head.length, 0);
      if (isSealedObject(head))
        return await readSealedObject(handle, await this.secretOf(key), key, size);
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  async exists(key: string): Promise<{ size: number } | null> {
    try {
      const file = this.file(key);
      const info = await stat(file);
      if (!info.isFile()) return null;
      const handle = await open(file, 'r');
      const head = Buffer.alloc(SEALED_OBJECT_MAGIC.length);
      await handle.read(head, 0, head.length, 0).finally(() => handle.close());
      return { size: isSealedObject(head) ? plainObjectSize(info.size) : info.size };
    } catch {
      return null;
    }
  }

  /** The key of every stored object still in plain (stored before D154). */
  async plainKeys(): Promise<string[]> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch(
      () => [],
    );
    const plain: string[] = [];
    for (const entry of entries) {
      if (!entry.isFile() || entry.name.endsWith(PART)) continue;
      const file = path.join(entry.parentPath, entry.name);
      const handle = await open(file, 'r');
      const head = Buffer.alloc(SEALED_OBJECT_MAGIC.length);
      const { bytesRead } = await handle
        .read(head, 0, head.length, 0)
        .finally(() => handle.close());
      if (bytesRead < head.length || !isSealedObject(head))
        plain.push(path.relative(this.root, file).split(path.sep).join('/'));
    }
    return plain;
  }

  /** Seals a plain object in place (D154): the same bytes, written again sealed. */
  async sealInPlace(key: string): Promise<void> {
    const bytes = await this.get(key);
    if (bytes) await this.put(key, bytes);
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
