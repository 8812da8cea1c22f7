/**
 * Password hashing with Argon2id (SECURITY.md REQ-ID-5: m = 19 MiB, t = 2, p = 1). Passwords are
 * verified exactly as received: never trimmed, never truncated.
 */
import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import pLimit, { type LimitFunction } from 'p-limit';

export interface Argon2Cost {
  readonly memoryCost: number;
  readonly timeCost: number;
  readonly parallelism: number;
}

/** Algorithm.Argon2id in @node-rs/argon2 (a const enum, so written out here). */
const ARGON2ID = 2;

/**
 * Argon2id is the server's CPU and memory hot spot (SECURITY.md section 5: a deadline day brings
 * 2.7 logins per submitted application). At most this many hashes run at once, leaving a core for
 * autosaves and reads; the rest wait their turn. Memory stays bounded at this many × 19 MiB.
 */
export const HASH_CONCURRENCY = Math.max(1, os.availableParallelism() - 1);

export class PasswordHasher {
  private dummy: Promise<string> | null = null;
  private readonly limit: LimitFunction;

  constructor(
    private readonly cost: Argon2Cost,
    concurrency = HASH_CONCURRENCY,
  ) {
    this.limit = pLimit(concurrency);
  }

  /** Hashes running now and waiting for their turn. */
  get load(): { readonly running: number; readonly waiting: number } {
    return { running: this.limit.activeCount, waiting: this.limit.pendingCount };
  }

  hash(password: string): Promise<string> {
    return this.limit(() => hash(password, { algorithm: ARGON2ID, ...this.cost }));
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await this.limit(() => verify(passwordHash, password));
    } catch {
      return false;
    }
  }

  /** Spends the same time as a real verification, for unknown accounts (no timing leak). */
  async verifyNothing(password: string): Promise<false> {
    this.dummy ??= this.hash('not a real password, only a timing stand-in');
    await this.verify(await this.dummy, password);
    return false;
  }
}

const common: ReadonlySet<string> = new Set(dictionary['passwords-common']);

/**
 * ASVS 6.2.4: the password is one of the ~49,000 most common passwords (case-insensitive), or one of
 * them dressed up with trailing digits and symbols to meet the composition rules ("Password123!").
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (common.has(lower)) return true;
  const base = lower.replace(/[^a-z]+$/, '');
  return base.length >= 4 && common.has(base);
}

export const COMMON_PASSWORD_COUNT = common.size;
