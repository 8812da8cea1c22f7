/** Random secrets and their stored hashes. Secrets themselves are never stored or logged. */
import {
  createHash,
  createHmac,
  randomBytes,
  randomInt,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A URL-safe secret of `bytes` random bytes (32 bytes = 256 bits). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A token as it is issued: the secret handed out once, the hash stored in its place, its expiry. */
export interface IssuedToken {
  readonly token: string;
  readonly hash: string;
  readonly expiresAt: Date;
}

/** A new 256-bit token valid for `validityMs` from `now`; only its sha256 is ever stored. */
export function issueToken(now: Date, validityMs: number): IssuedToken {
  const token = randomToken(32);
  return { token, hash: sha256(token), expiresAt: new Date(now.getTime() + validityMs) };
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

/** HMAC-SHA256 of `value` under `key`, base64url. */
export function hmac(key: string | Buffer | KeyObject, value: string): string {
  return createHmac('sha256', key).update(value, 'utf8').digest('base64url');
}

/** Compares two strings in constant time (for signatures and keys of equal length). */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(sha256(a), 'hex');
  const right = Buffer.from(sha256(b), 'hex');
  return timingSafeEqual(left, right);
}

/**
 * A random secret kept in a file of DATA_DIR with mode 600, created on first use (by whichever
 * process gets there first; the others read the winner's). Never logged. The secret is written to
 * a file of its own and then linked into place, so a process starting alongside never reads a
 * file that exists but is still empty.
 */
export function secretFile(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(file)) {
    const draft = `${file}.${process.pid}.${randomToken(6)}.tmp`;
    writeFileSync(draft, `${randomToken(32)}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(draft, { force: true });
    }
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} does not hold a secret of 32+ characters.`);
  return secret;
}
