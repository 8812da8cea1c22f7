/** AES-256-GCM (D150): a random 96-bit IV per message, the tag checked on open, bound to its context. */
import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  randomFillSync,
  type KeyObject,
} from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * IVs cut from a buffer the CSPRNG fills 512 at a time, each used once: a call of `randomBytes` per
 * message cost more than the encryption of an autosave's answer (D150).
 */
const ivPool = Buffer.alloc(IV_BYTES * 512);
let ivOffset = ivPool.length;

function nextIv(): Buffer {
  if (ivOffset + IV_BYTES > ivPool.length) {
    randomFillSync(ivPool);
    ivOffset = 0;
  }
  const iv = Buffer.from(ivPool.subarray(ivOffset, ivOffset + IV_BYTES));
  ivOffset += IV_BYTES;
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

/** `iv | tag | ciphertext` of `plaintext` under the 256-bit `key`, authenticated with `context`. */
export function sealBytes(key: Buffer, plaintext: Buffer, context: string): Buffer {
  const iv = nextIv();
  const cipher = createCipheriv('aes-256-gcm', keyObjectOf(key), iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The plaintext of `sealBytes`; throws when the key, the context or a byte is not the sealer's. */
export function openBytes(key: Buffer, sealed: Buffer, context: string): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error('sealed value too short');
  const decipher = createDecipheriv('aes-256-gcm', keyObjectOf(key), sealed.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}
