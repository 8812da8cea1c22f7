/**
 * Encrypts the staff TOTP keys, the codes and links of queued mail (D138) and what a queued account
 * request carries (D193), at rest (AES-256-GCM). The key is derived with HKDF from the
 * service-token key (SERVICE_TOKEN_SECRET, else the key file in DATA_DIR), which every process on
 * one database already shares, so no second secret has to be configured (D103).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { ServerConfig } from '../config';
import { serviceTokenKey } from '../serviceView';

const VERSION = 'v1';

/** What a box holds: each purpose has a key of its own, derived from the one secret. */
export type BoxPurpose = 'staff-totp-secret:v1' | 'mail:v1' | 'account-request:v1';

function boxKey(config: ServerConfig, purpose: BoxPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', serviceTokenKey(config), '', purpose, 32));
}

/** `v1.<iv>.<ciphertext>.<tag>`, base64url parts; `aad` binds it to its row (tenant and staff id). */
export function seal(
  config: ServerConfig,
  plaintext: string,
  aad: string,
  purpose: BoxPurpose = 'staff-totp-secret:v1',
): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', boxKey(config, purpose), iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, body, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

export function open(
  config: ServerConfig,
  sealed: string,
  aad: string,
  purpose: BoxPurpose = 'staff-totp-secret:v1',
): string {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== VERSION || !iv || !body || !tag) throw new Error('Not a sealed secret.');
  const decipher = createDecipheriv(
    'aes-256-gcm',
    boxKey(config, purpose),
    Buffer.from(iv, 'base64url'),
  );
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(body, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}
