/** Random secrets and their stored hashes. Secrets themselves are never stored or logged. */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A URL-safe secret of `bytes` random bytes (32 bytes = 256 bits). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** REQ-ID-1: six digits from a CSPRNG, zero-padded. */
export function randomCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Compares two hex digests in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
