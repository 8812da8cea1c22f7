/**
 * The form runtime's API changes only on purpose: what `runtime/index.ts` exports, with each
 * value's type, equals the committed report (runtime/API.md). After a deliberate change, run
 * `npm run api:runtime` and say so in docs/embedding.md.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RUNTIME_API_REPORT, runtimeApiReport } from '../../scripts/runtimeApi';

describe("the form runtime's public API", () => {
  it('is the committed report, name for name and type for type', () => {
    const committed = readFileSync(RUNTIME_API_REPORT, 'utf8');
    expect(
      runtimeApiReport(),
      'runtime/index.ts exports something else than runtime/API.md says: if that is on purpose, run `npm run api:runtime`',
    ).toBe(committed);
  }, 60_000);

  it('holds nothing of one product: no test hook and no application status', () => {
    const names = [...runtimeApiReport().matchAll(/^- `([^`]+)`/gm)].map((match) => match[1]);
    expect(names).not.toContain('instrumentation');
    expect(names.filter((name) => /webstatus/i.test(name ?? ''))).toEqual([]);
  }, 60_000);
});
