/**
 * The bounded JSON reader (D72) on its own: any split of the bytes reads the same value
 * JSON.parse reads, and each limit stops the reading at the token that crosses it, not at the end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonRefused } from '../../server/security/json';
import { BoundedJsonReader, type JsonLimits } from '../../server/security/json';

const ROOMY: JsonLimits = { bytes: 1 << 20, depth: 8, members: 10_000 };

/** Feeds `bytes` in pieces cut at `cuts`; returns the value or the refusal and the bytes fed. */
function read(bytes: Buffer, limits: JsonLimits, cuts: number[] = []) {
  const reader = new BoundedJsonReader(limits);
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let start = 0;
  let fed = 0;
  try {
    for (const end of [...points, bytes.length]) {
      reader.write(bytes.subarray(start, end));
      fed = end;
      start = end;
    }
    return { value: reader.end(), fed };
  } catch (error) {
    return { refused: (error as JsonRefused).reason, fed };
  }
}

describe('D72 bounded JSON reader', () => {
  it('reads what JSON.parse reads, however the bytes are split (emoji, escapes, numbers across pieces)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc
            .string({ minLength: 1, maxLength: 8, unit: 'grapheme' })
            .filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k)),
          fc.oneof(
            fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\u0000')),
            fc.boolean(),
            fc.constant(null),
            fc.integer(),
            fc.array(fc.string({ unit: 'grapheme-ascii' }), { maxLength: 3 }),
          ),
        ),
        fc.array(fc.nat(), { maxLength: 6 }),
        (object, cuts) => {
          const bytes = Buffer.from(JSON.stringify(object), 'utf8');
          expect(read(bytes, ROOMY, cuts).value).toEqual(JSON.parse(bytes.toString('utf8')));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stops at the token over a limit: a megabyte of nesting is refused within its first bytes', () => {
    const deep = Buffer.from(`${'['.repeat(500_000)}${']'.repeat(500_000)}`);
    const pieces = Array.from({ length: 100 }, (_, i) => (i + 1) * 10_000);
    expect(read(deep, { ...ROOMY, depth: 3 }, pieces)).toEqual({ refused: 'malformed', fed: 0 });
    const wide = Buffer.from(
      `{${Array.from({ length: 50_000 }, (_, i) => `"k${i}":1`).join(',')}}`,
    );
    const result = read(wide, { ...ROOMY, members: 100 }, pieces);
    expect(result).toMatchObject({ refused: 'malformed' });
    expect(result.fed).toBeLessThan(10_000);
    expect(read(wide, { ...ROOMY, bytes: 1000 }, pieces)).toEqual({ refused: 'tooLarge', fed: 0 });
  });

  it.each([
    ['a duplicate key', '{"a":1,"a":2}'],
    ['a duplicate key spelt with an escape', '{"first_name":"A","\\u0066irst_name":"B"}'],
    ['__proto__', '{"__proto__":{"x":1}}'],
    ['constructor.prototype', '{"a":[{"constructor":{"prototype":{}}}]}'],
    ['a NUL', '{"a":"x\\u0000y"}'],
    ['a lone surrogate', '{"a":"\\ud800"}'],
    ['a second document', '{"a":1}{"b":2}'],
    ['a truncated document', '{"a":'],
  ])('refuses %s', (_name, text) => {
    expect(read(Buffer.from(text), ROOMY)).toMatchObject({ refused: 'malformed' });
  });

  it('reads an empty body as {} and keeps sibling objects with the same keys', () => {
    expect(read(Buffer.from('  '), ROOMY).value).toEqual({});
    expect(
      read(Buffer.from('{"a":{"k":1},"b":{"k":2},"c":[{"k":1},{"k":2}]}'), ROOMY).value,
    ).toEqual({
      a: { k: 1 },
      b: { k: 2 },
      c: [{ k: 1 }, { k: 2 }],
    });
  });
});
