/**
 * The server's one AES-256-GCM (D150, D204): a random 96-bit IV per message, the tag checked on
 * open, bound to its context.
 */
import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  randomFillSync,
  type KeyObject,
} from 'node:crypto';

export const AEAD_IV_BYTES = 12;
export const AEAD_TAG_BYTES = 16;

/**
 * IVs cut from a buffer the CSPRNG fills 512 at a time, each used once: a call of `randomBytes` per
 * message cost more than the encryption of an autosave's answer (D150).
 */
const ivPool = Buffer.alloc(AEAD_IV_BYTES * 512);
let ivOffset = ivPool.length;

function nextIv(): Buffer {
  if (ivOffset + AEAD_IV_BYTES > ivPool.length) {
    randomFillSync(ivPool);
    ivOffset = 0;
  }
  const iv = Buffer.from(ivPool.subarray(ivOffset, ivOffset + AEAD_IV_BYTES));
  ivOffset += AEAD_IV_BYTES;
  return iv;
}

const keyObjects = new WeakMap<Buffer, KeyObject>();

/** The key as a KeyObject, made once per key buffer: OpenSSL then imports it once, not per message. */
export function keyObjectOf(key: Buffer): KeyObject {
  let object = keyObjects.get(key);
  if (!object) {
    object = createSecretKey(key);
    keyObjects.set(key, object);
  }
  return object;
}

/**
 * The one AES-256-GCM of the server (D204): `plaintext` under `key` with the given 96-bit `iv`,
 * authenticated with `context`. The caller owns the IV's uniqueness (a random one below, a chunk's
 * index under a key of its own object in objectSeal.ts).
 */
export function sealWithIv(
  key: Buffer,
  iv: Buffer,
  plaintext: Uint8Array,
  context: Uint8Array,
): { readonly body: Buffer; readonly tag: Buffer } {
  const cipher = createCipheriv('aes-256-gcm', keyObjectOf(key), iv);
  cipher.setAAD(context);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { body, tag: cipher.getAuthTag() };
}

/** The plaintext of `sealWithIv`; throws when the key, the IV, the context or a byte is not its. */
export function openWithIv(
  key: Buffer,
  iv: Buffer,
  body: Uint8Array,
  tag: Uint8Array,
  context: Uint8Array,
): Buffer {
  if (tag.length !== AEAD_TAG_BYTES) throw new Error('sealed value without its tag');
  const decipher = createDecipheriv('aes-256-gcm', keyObjectOf(key), iv);
  decipher.setAAD(context);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]);
}

/** `iv | tag | ciphertext` of `plaintext` under the 256-bit `key`, authenticated with `context`. */
export function sealBytes(key: Buffer, plaintext: Buffer, context: string): Buffer {
  const iv = nextIv();
  const { body, tag } = sealWithIv(key, iv, plaintext, Buffer.from(context, 'utf8'));
  return Buffer.concat([iv, tag, body]);
}

/** The plaintext of `sealBytes`; throws when the key, the context or a byte is not the sealer's. */
export function openBytes(key: Buffer, sealed: Buffer, context: string): Buffer {
  if (sealed.length < AEAD_IV_BYTES + AEAD_TAG_BYTES) throw new Error('sealed value too short');
  return openWithIv(
    key,
    sealed.subarray(0, AEAD_IV_BYTES),
    sealed.subarray(AEAD_IV_BYTES + AEAD_TAG_BYTES),
    sealed.subarray(AEAD_IV_BYTES, AEAD_IV_BYTES + AEAD_TAG_BYTES),
    Buffer.from(context, 'utf8'),
  );
}
