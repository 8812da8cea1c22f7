/**
 * Issuing a token (sessions, staff sessions, temporary answers, reset links, staff invitations): the
 * secret handed out once, only its sha256 stored, an expiry from the issuing time.
 */
import { describe, expect, it } from 'vitest';
import { issueToken, sha256 } from '../../server/secrets';

describe('issueToken', () => {
  it('hands out 256 random bits, stores only their sha256, and expires after the validity given', () => {
    const now = new Date('2026-11-24T12:00:00Z');
    const issued = Array.from({ length: 1000 }, () => issueToken(now, 5 * 60_000));
    for (const { token, hash, expiresAt } of issued) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(hash).toBe(sha256(token));
      expect(hash).not.toContain(token);
      expect(expiresAt.toISOString()).toBe('2026-11-24T12:05:00.000Z');
    }
    expect(new Set(issued.map((t) => t.token)).size).toBe(issued.length);
  });
});
