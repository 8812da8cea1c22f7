/**
 * Encrypts the staff TOTP keys, the codes and links of queued mail (D138) and what a queued account
 * request carries (D193), at rest, with the one AES-256-GCM of `aead.ts` (D204). The key is derived
 * with HKDF from the service-token key (SERVICE_TOKEN_SECRET, else the key file in DATA_DIR), which
 * every process on one database already shares, so no second secret has to be configured (D103).
 */
import { hkdfSync } from 'node:crypto';
import type { ServerConfig } from '../config';
import { AEAD_IV_BYTES, AEAD_TAG_BYTES, openBytes, sealBytes } from './aead';
import { serviceTokenKey } from './serviceKey';

const VERSION = 'v1';

/** What a box holds: each purpose has a key of its own, derived from the one secret. */
export type BoxPurpose = 'staff-totp-secret:v1' | 'mail:v1' | 'account-request:v1';

function boxKey(config: ServerConfig, purpose: BoxPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', serviceTokenKey(config), '', purpose, 32));
}

/**
 * `v1.<iv>.<ciphertext>.<tag>`, base64url parts (the layout sealed TOTP keys are stored in); `aad`
 * binds it to its row (tenant and staff id).
 */
export function seal(
  config: ServerConfig,
  plaintext: string,
  aad: string,
  purpose: BoxPurpose = 'staff-totp-secret:v1',
): string {
  const sealed = sealBytes(boxKey(config, purpose), Buffer.from(plaintext, 'utf8'), aad);
  const iv = sealed.subarray(0, AEAD_IV_BYTES);
  const tag = sealed.subarray(AEAD_IV_BYTES, AEAD_IV_BYTES + AEAD_TAG_BYTES);
  const body = sealed.subarray(AEAD_IV_BYTES + AEAD_TAG_BYTES);
  return [VERSION, ...[iv, body, tag].map((part) => part.toString('base64url'))].join('.');
}

export function open(
  config: ServerConfig,
  sealed: string,
  aad: string,
  purpose: BoxPurpose = 'staff-totp-secret:v1',
): string {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== VERSION || !iv || !body || !tag) throw new Error('Not a sealed secret.');
  const bytes = Buffer.concat([iv, tag, body].map((part) => Buffer.from(part, 'base64url')));
  return openBytes(boxKey(config, purpose), bytes, aad).toString('utf8');
}
