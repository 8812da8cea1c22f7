/**
 * The secret box (TOTP keys, queued mail, account requests) seals with the one AES-256-GCM of
 * server/crypto/aead.ts (D204), in the layout rows already hold: a value sealed before still opens.
 */
import { describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../server/config';
import { open, seal } from '../../server/crypto/secretBox';

const config = {
  serviceTokenSecret: 'a-fixed-service-token-secret-for-tests',
  dataDir: '/nonexistent',
} as ServerConfig;

/** Sealed by the box's own AES-256-GCM before D204 (`v1.<iv>.<ciphertext>.<tag>`). */
const SEALED_BEFORE = 'v1.3XOJDhISNGSj_qnw.jam3h2TLQgRk2WaeeUu7hgOu_RlgHNbh.a1-Emg7DDmTn_H3RqvZ06A';

describe('the secret box', () => {
  it('opens a mail sealed before it shared the AEAD', () => {
    expect(open(config, SEALED_BEFORE, 'northfield:mail-1', 'mail:v1')).toBe(
      '{"to":"ada@example.org"}',
    );
  });

  it('seals in the same layout, bound to its row and its purpose', () => {
    const sealed = seal(config, 'JBSWY3DPEHPK3PXP', 'northfield:staff-1');
    expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]{22}$/);
    expect(open(config, sealed, 'northfield:staff-1')).toBe('JBSWY3DPEHPK3PXP');
    expect(() => open(config, sealed, 'northfield:staff-2')).toThrow();
    expect(() => open(config, sealed, 'northfield:staff-1', 'mail:v1')).toThrow();
  });
});
