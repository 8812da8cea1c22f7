/**
 * The second factor: RFC 6238 TOTP (SHA-1, 6 digits, 30 s, as every authenticator app reads it)
 * with `otpauth`, the enrolment QR code as SVG with `uqr` (no script: shown as an image under the
 * CSP), and recovery codes.
 */
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { renderSVG } from 'uqr';

export const TOTP_PERIOD_S = 30;
/** One step either side, for clocks a little off. */
const WINDOW = 1;

function totpOf(secret: string, issuer: string, label: string): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secret),
  });
}

/** A new 160-bit key in base32 (RFC 4226's recommended length). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function enrolmentOf(secret: string, issuer: string, label: string) {
  const uri = totpOf(secret, issuer, label).toString();
  return { uri, secret, svg: renderSVG(uri, { border: 2 }) };
}

/** The 30-second step a right code belongs to, or null. The caller makes each step usable once. */
export function matchingStep(secret: string, code: string, now: Date): number | null {
  const totp = totpOf(secret, '', '');
  const timestamp = now.getTime();
  const delta = totp.validate({ token: code, timestamp, window: WINDOW });
  if (delta === null) return null;
  return totp.counter({ timestamp }) + delta;
}

/** The code of a step (tests and the e2e test act as the authenticator app). */
export function codeAt(secret: string, now: Date): string {
  return totpOf(secret, '', '').generate({ timestamp: now.getTime() });
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A recovery code: 10 base32 letters (50 bits), shown as `XXXXX-XXXXX`. */
export function newRecoveryCode(): string {
  const letters = [...randomBytes(10)].map((byte) => BASE32[byte % 32]).join('');
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

/** How a typed recovery code is compared: capitals, no dash or space. */
export function normalizeRecoveryCode(code: string): string {
  return code.replace(/[- ]/g, '').toUpperCase();
}

export const isTotpCode = (code: string) => /^\d{6}$/.test(code);
