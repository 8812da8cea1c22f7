/**
 * Stored objects at rest (D154): AES-256-GCM (aead.ts's, D204) in chunks of 64 KiB, so an object is
 * sealed and opened with one chunk in flight beside its plaintext, never a second whole copy. Each
 * object has its own key, derived from the tenant's objects key, a random salt kept in its header
 * and the object's name (a file moved to another name does not open). Each chunk's nonce is its index and its
 * additional data says whether it is the last, so chunks can be neither reordered nor cut off.
 *
 *   header: "AdmObj" 0x00 0x02 | salt (12 bytes) | data key version (4 bytes, big-endian, D167)
 *   (before D167: "AdmObj" 0x00 0x01 | salt (16 bytes), under the first data key version)
 *   chunks: ciphertext | tag (16 bytes), the last one possibly short (an empty object: one tag)
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { openWithIv, sealWithIv } from './aead';

/** The first bytes of a sealed object; an object without them is a plain one stored before D154. */
export const SEALED_OBJECT_MAGIC = Buffer.from('AdmObj\u0000\u0002', 'latin1');
/** The first bytes of an object sealed before D167, under the tenant's first data key. */
const UNVERSIONED_OBJECT_MAGIC = Buffer.from('AdmObj\u0000\u0001', 'latin1');
/** The salt field, whose last four bytes name the data key version (all of it salts the key). */
const SALT_BYTES = 16;
const VERSION_BYTES = 4;
const TAG_BYTES = 16;
export const OBJECT_HEADER_BYTES = SEALED_OBJECT_MAGIC.length + SALT_BYTES;
export const OBJECT_CHUNK_BYTES = 64 * 1024;
const SEALED_CHUNK_BYTES = OBJECT_CHUNK_BYTES + TAG_BYTES;

const objectKey = (secret: Buffer, salt: Buffer, name: string) =>
  Buffer.from(hkdfSync('sha256', secret, salt, `object v1:${name}`, 32));

function nonce(index: number): Buffer {
  const iv = Buffer.alloc(12);
  iv.writeUIntBE(index, 6, 6);
  return iv;
}

const chunkContext = (last: boolean) => Buffer.from(last ? 'last' : 'more', 'latin1');

/** Whether the first bytes of a stored object are a sealed object's. */
export function isSealedObject(head: Uint8Array): boolean {
  const magic = Buffer.from(head.subarray(0, SEALED_OBJECT_MAGIC.length));
  return magic.equals(SEALED_OBJECT_MAGIC) || magic.equals(UNVERSIONED_OBJECT_MAGIC);
}

/** The data key version a sealed object's header (its first OBJECT_HEADER_BYTES) names. */
export function objectKeyVersion(header: Uint8Array): number {
  const bytes = Buffer.from(header);
  if (bytes.subarray(0, SEALED_OBJECT_MAGIC.length).equals(UNVERSIONED_OBJECT_MAGIC)) return 1;
  return bytes.readUInt32BE(OBJECT_HEADER_BYTES - VERSION_BYTES);
}

/** The plaintext size of a sealed object of `sealedSize` bytes. */
export function plainObjectSize(sealedSize: number): number {
  const body = sealedSize - OBJECT_HEADER_BYTES;
  const chunks = Math.max(1, Math.ceil(body / SEALED_CHUNK_BYTES));
  return body - chunks * TAG_BYTES;
}

/**
 * Writes the bytes of `source` sealed under `secret` (the objects key of data key `version`) for
 * the object `name` to the open file `handle`, one chunk at a time: a chunk is sealed once the
 * next byte (or the end) tells whether it is the last, so a stream of any length needs one chunk.
 */
export async function writeSealedObject(
  handle: FileHandle,
  secret: Buffer,
  version: number,
  name: string,
  source: Uint8Array | AsyncIterable<Uint8Array>,
): Promise<void> {
  const salt = Buffer.alloc(SALT_BYTES);
  randomBytes(SALT_BYTES - VERSION_BYTES).copy(salt);
  salt.writeUInt32BE(version, SALT_BYTES - VERSION_BYTES);
  const key = objectKey(secret, salt, name);
  await handle.write(Buffer.concat([SEALED_OBJECT_MAGIC, salt]));
  const block = Buffer.allocUnsafe(OBJECT_CHUNK_BYTES);
  let filled = 0;
  let index = 0;
  const seal = async (last: boolean) => {
    const { body, tag } = sealWithIv(
      key,
      nonce(index++),
      block.subarray(0, filled),
      chunkContext(last),
    );
    await handle.write(Buffer.concat([body, tag]));
    filled = 0;
  };
  for await (const bytes of source instanceof Uint8Array ? [source] : source)
    for (let at = 0; at < bytes.length;) {
      if (filled === OBJECT_CHUNK_BYTES) await seal(false);
      const taken = Math.min(bytes.length - at, OBJECT_CHUNK_BYTES - filled);
      block.set(bytes.subarray(at, at + taken), filled);
      filled += taken;
      at += taken;
    }
  await seal(true);
}

/**
 * The plaintext of the sealed object in `handle` (`size` bytes) chunk by chunk, under the objects
 * key of the data key version its header names; throws when the secret, the name or any byte is
 * not the sealer's, or when the object was cut short. A chunk is given only once its tag is checked.
 */
export async function* sealedObjectChunks(
  handle: FileHandle,
  secretOf: (version: number) => Promise<Buffer>,
  name: string,
  size: number,
): AsyncGenerator<Buffer> {
  if (size < OBJECT_HEADER_BYTES + TAG_BYTES) throw new Error('sealed object too short');
  const header = Buffer.alloc(OBJECT_HEADER_BYTES);
  await handle.read(header, 0, OBJECT_HEADER_BYTES, 0);
  if (!isSealedObject(header)) throw new Error('not a sealed object');
  const secret = await secretOf(objectKeyVersion(header));
  const key = objectKey(secret, header.subarray(SEALED_OBJECT_MAGIC.length), name);
  const chunk = Buffer.alloc(SEALED_CHUNK_BYTES);
  let position = OBJECT_HEADER_BYTES;
  for (let index = 0; position < size; index++) {
    const length = Math.min(SEALED_CHUNK_BYTES, size - position);
    if (length < TAG_BYTES) throw new Error('sealed object cut short');
    await handle.read(chunk, 0, length, position);
    position += length;
    yield openWithIv(
      key,
      nonce(index),
      chunk.subarray(0, length - TAG_BYTES),
      chunk.subarray(length - TAG_BYTES, length),
      chunkContext(position === size),
    );
  }
}

/** The whole plaintext of the sealed object in `handle` (`size` bytes): see sealedObjectChunks. */
export async function readSealedObject(
  handle: FileHandle,
  secretOf: (version: number) => Promise<Buffer>,
  name: string,
  size: number,
): Promise<Buffer> {
  const plain = Buffer.allocUnsafe(Math.max(0, plainObjectSize(size)));
  let written = 0;
  for await (const chunk of sealedObjectChunks(handle, secretOf, name, size))
    written += chunk.copy(plain, written);
  return plain;
}
