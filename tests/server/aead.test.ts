/**
 * AES-256-GCM of the sealed answers and objects (D150): every message gets its own random IV, also
 * across the refills of the IV pool, and opens only under its key and context; a long answer is
 * deflated before it is sealed (D186).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openBytes, sealBytes } from '../../server/crypto/aead';
import { openOne, sealOne } from '../../server/crypto/answerVault';
import type { DataKey } from '../../server/crypto/dataKeys';

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

describe('a sealed answer', () => {
  const dataKey: DataKey = {
    version: 2,
    encryption: randomBytes(32),
    digest: randomBytes(32),
    objects: randomBytes(32),
  };
  const owner = { tenantId: 't', userId: 'u' };
  const explanation = Array.from(
    { length: 60 },
    (_, i) => `I was suspended in year ${i % 4} after an incident with friends.`,
  ).join(' ');

  it('deflates a long explanation before sealing, so it takes less room than the text, and opens it', () => {
    const sealed = sealOne(dataKey, owner, 'conviction_comment', explanation);
    expect(sealed.deflated).toBe(true);
    expect(Buffer.from(sealed.sealed, 'base64').length).toBeLessThan(explanation.length / 2);
    expect(openOne(dataKey, owner, 'conviction_comment', sealed)).toBe(explanation);
    // The digest is of the value, not of its deflated bytes: an unchanged value stays unchanged.
    expect(sealOne(dataKey, owner, 'conviction_comment', explanation).digest).toBe(sealed.digest);
  });

  it('seals a short value as it is, and opens values sealed either way', () => {
    const ssn = sealOne(dataKey, owner, 'ssn', '123-45-6789');
    expect(ssn.deflated).toBeUndefined();
    expect(openOne(dataKey, owner, 'ssn', ssn)).toBe('123-45-6789');
  });

  it('refuses a value whose deflated mark was changed, either way', () => {
    const long = sealOne(dataKey, owner, 'conviction_comment', explanation);
    const { deflated: _deflated, ...unmarked } = long;
    expect(() => openOne(dataKey, owner, 'conviction_comment', unmarked)).toThrow();
    const short = sealOne(dataKey, owner, 'ssn', '123-45-6789');
    expect(() => openOne(dataKey, owner, 'ssn', { ...short, deflated: true })).toThrow();
  });
});
