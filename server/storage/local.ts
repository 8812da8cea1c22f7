/**
 * Local-disk storage under DATA_DIR/objects, with the presigned-POST protocol implemented by the server
 * itself: the fields carry the key, a policy (key, expiry, types, size range) and its HMAC-SHA256
 * signature; the upload endpoint (server/storage/uploadRoute.ts) checks them. Every object is
 * written sealed under its tenant's objects key (D154); a plain one stored before is still read.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  isSealedObject,
  OBJECT_HEADER_BYTES,
  objectKeyVersion,
  plainObjectSize,
  readSealedObject,
  SEALED_OBJECT_MAGIC,
  sealedObjectChunks,
  writeSealedObject,
} from '../crypto/objectSeal';
import { randomToken } from '../secrets';
import { objectTenant, UPLOAD_POLICY, type ObjectStorage, type PresignedPost } from './storage';

/**
 * The secret that seals a tenant's objects (the objects key of the tenant's data key, D154): of the
 * current version, or of `version` (D167).
 */
export type ObjectKeys = (
  tenantId: string,
  version?: number,
) => Promise<{ readonly version: number; readonly objects: Buffer }>;

/**
 * Runs `place` (an object's rename into place) while the tenant's data key `version` is held against
 * a retirement; false, and `place` not run, when that version was retired (D189).
 */
export type PlaceUnder = (
  tenantId: string,
  version: number,
  place: () => Promise<void>,
) => Promise<boolean>;

/** What seals local objects: the keys, and the hold of a version while an object is placed. */
export interface ObjectKeyring {
  readonly objectKeys: ObjectKeys;
  readonly placeObjectUnder: PlaceUnder;
}

/** A keyring whose versions are never retired (a fixed secret: tests and benches). */
export const unretiredKeyring = (objectKeys: ObjectKeys): ObjectKeyring => ({
  objectKeys,
  placeObjectUnder: async (_tenantId, _version, place) => {
    await place();
    return true;
  },
});

/** Times an object is sealed again after its version was retired while it was written. */
const PLACE_ATTEMPTS = 3;

const PART = '.part';

/** An object sealed into a temporary file beside its own, not yet renamed into place. */
interface SealedCopy {
  readonly temporary: string;
  readonly version: number;
  readonly secret: Buffer;
}

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
    private readonly keyring: ObjectKeyring,
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

  private async secretOf(key: string, version: number): Promise<Buffer> {
    return (await this.keyring.objectKeys(objectTenant(key), version)).objects;
  }

  async put(key: string, bytes: Uint8Array, _contentType?: string): Promise<void> {
    await this.place(key, await this.sealedCopy(key, bytes));
  }

  async putStream(
    key: string,
    source: AsyncIterable<Uint8Array>,
    _contentType?: string,
  ): Promise<void> {
    await this.place(key, await this.sealedCopy(key, source));
  }

  /**
   * Renames a sealed copy into place while its key version is held (D189); when that version was
   * retired meanwhile, the copy is sealed again under the current one first.
   */
  private async place(key: string, copy: SealedCopy): Promise<void> {
    const file = this.file(key);
    for (let attempt = 1; ; attempt++) {
      const placed = await this.keyring.placeObjectUnder(objectTenant(key), copy.version, () =>
        rename(copy.temporary, file),
      );
      if (placed) return;
      if (attempt >= PLACE_ATTEMPTS) {
        await rm(copy.temporary, { force: true });
        throw new Error(`object ${key}: its data key was retired ${attempt} times while written`);
      }
      const again = await this.sealedCopy(key, this.copyChunks(key, copy));
      await rm(copy.temporary, { force: true });
      copy = again;
    }
  }

  /** The plaintext of a sealed copy, under the key it was sealed with. */
  private async *copyChunks(key: string, copy: SealedCopy): AsyncGenerator<Buffer> {
    const handle = await open(copy.temporary, 'r');
    try {
      const { size } = await handle.stat();
      yield* sealedObjectChunks(handle, () => Promise.resolve(copy.secret), key, size);
    } finally {
      await handle.close();
    }
  }

  /** A temporary file beside the object's holding `bytes` sealed under the current data key. */
  private async sealedCopy(
    key: string,
    bytes: Uint8Array | AsyncIterable<Uint8Array>,
  ): Promise<SealedCopy> {
    const file = this.file(key);
    const current = await this.keyring.objectKeys(objectTenant(key));
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomToken(6)}${PART}`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      await writeSealedObject(handle, current.objects, current.version, key, bytes);
    } catch (error) {
      await handle.close();
      await rm(temporary, { force: true });
      throw error;
    }
    await handle.close();
    return { temporary, version: current.version, secret: current.objects };
  }

  /** The object's file opened for reading, or null when there is none. */
  private async opened(key: string): Promise<FileHandle | null> {
    try {
      return await open(this.file(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  private static async sealed(handle: FileHandle): Promise<boolean> {
    const head = Buffer.alloc(SEALED_OBJECT_MAGIC.length);
    await handle.read(head, 0, head.length, 0);
    return isSealedObject(head);
  }

  async get(key: string): Promise<Buffer | null> {
    const handle = await this.opened(key);
    if (!handle) return null;
    try {
      const { size } = await handle.stat();
      if (await LocalStorage.sealed(handle))
        return await readSealedObject(handle, (v) => this.secretOf(key, v), key, size);
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  async getStream(key: string): Promise<{ body: Readable; size: number } | null> {
    const opened = await this.opened(key);
    if (!opened) return null;
    const handle = opened;
    let sealed: boolean;
    let size: number;
    try {
      ({ size } = await handle.stat());
      sealed = await LocalStorage.sealed(handle);
    } catch (error) {
      await handle.close();
      throw error;
    }
    const secretOf = (version: number) => this.secretOf(key, version);
    // The file stays open while the stream is read; it closes at its end or when it is destroyed.
    async function* chunks() {
      try {
        if (sealed) yield* sealedObjectChunks(handle, secretOf, key, size);
        else yield* handle.createReadStream({ start: 0, autoClose: false });
      } finally {
        await handle.close();
      }
    }
    return {
      body: Readable.from(chunks(), { objectMode: false }),
      size: sealed ? plainObjectSize(size) : size,
    };
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
    return this.keysWhere((head) => !isSealedObject(head));
  }

  /** The keys of the tenant's objects sealed under a data key version below `version` (D167). */
  async keysUnder(tenantId: string, version: number): Promise<string[]> {
    const under = (head: Buffer) =>
      head.length === OBJECT_HEADER_BYTES &&
      isSealedObject(head) &&
      objectKeyVersion(head) < version;
    return (await this.keysWhere(under)).filter((key) => objectTenant(key) === tenantId);
  }

  /** The key of every stored object whose header (cut short for a small one) passes `test`. */
  private async keysWhere(test: (head: Buffer) => boolean): Promise<string[]> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch(
      () => [],
    );
    const found: string[] = [];
    for (const entry of entries) {
      if (!entry.isFile() || entry.name.endsWith(PART)) continue;
      const file = path.join(entry.parentPath, entry.name);
      const handle = await open(file, 'r');
      const head = Buffer.alloc(OBJECT_HEADER_BYTES);
      const { bytesRead } = await handle
        .read(head, 0, head.length, 0)
        .finally(() => handle.close());
      if (test(head.subarray(0, bytesRead)))
        found.push(path.relative(this.root, file).split(path.sep).join('/'));
    }
    return found;
  }

  /**
   * Seals a plain object in place (D154), or one under an older data key under the current one
   * (D167): the same bytes, written again sealed.
   */
  async sealInPlace(key: string): Promise<void> {
    const file = this.file(key);
    const before = await stat(file).catch(() => undefined);
    const object = await this.getStream(key);
    if (!before || !object) return;
    const copy = await this.sealedCopy(key, object.body);
    // An object put again meanwhile is the newer one, already sealed under the current key: it
    // stays. So does this one when its new version was retired meanwhile: the next sweep seals it.
    let placed = false;
    await this.keyring.placeObjectUnder(objectTenant(key), copy.version, async () => {
      const now = await stat(file).catch(() => undefined);
      if (now?.ino !== before.ino || now.mtimeMs !== before.mtimeMs) return;
      await rename(copy.temporary, file);
      placed = true;
    });
    if (!placed) await rm(copy.temporary, { force: true });
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
