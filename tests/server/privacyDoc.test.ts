/** docs/privacy.md quotes the retention windows from their one source (D153). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RETENTION_WINDOWS } from '../../server/retention';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('docs/privacy.md', () => {
  it('states every retention window as the code has it, in days', () => {
    const doc = readFileSync(new URL('../../docs/privacy.md', import.meta.url), 'utf8');
    const quoted = Object.fromEntries(
      [...doc.matchAll(/^\| `(\w+Ms)`\s*\| (\d+)\s*\|$/gm)].map((m) => [
        m[1],
        Number(m[2]) * DAY_MS,
      ]),
    );
    expect(quoted).toEqual(RETENTION_WINDOWS);
  });
});
