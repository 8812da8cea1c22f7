/**
 * AES-256-GCM of the sealed answers and objects (D150): every message gets its own random IV, also
 * across the refills of the IV pool, and opens only under its key and context.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openBytes, sealBytes } from '../../server/crypto/aead';

describe('sealBytes', () => {
  it('gives each of 2,000 messages its own IV (four refills of the pool) and opens each', () => {
    const key = randomBytes(32);
    const plaintext = Buffer.from('123-45-6789');
    const ivs = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const sealed = sealBytes(key, plaintext, 'answer:t:u:ssn');
      ivs.add(sealed.subarray(0, 12).toString('hex'));
      expect(openBytes(key, sealed, 'answer:t:u:ssn').equals(plaintext)).toBe(true);
    }
    expect(ivs.size).toBe(2_000);
  });

  it('refuses another key, another context and a changed byte', () => {
    const key = randomBytes(32);
    const sealed = sealBytes(key, Buffer.from('A12345678'), 'answer:t:u:alien');
    expect(() => openBytes(randomBytes(32), sealed, 'answer:t:u:alien')).toThrow();
    expect(() => openBytes(key, sealed, 'answer:t:v:alien')).toThrow();
    const changed = Buffer.from(sealed);
    const last = changed.length - 1;
    changed.writeUInt8(changed.readUInt8(last) ^ 1, last);
    expect(() => openBytes(key, changed, 'answer:t:u:alien')).toThrow();
  });
});
