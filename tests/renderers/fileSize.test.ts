/**
 * The size shown in "name (size)" (SPEC 3.4, docs/decisions/ D36): 1 kB = 1024 bytes, one decimal
 * at most, and the unit chosen after rounding.
 */
import { describe, expect, it } from 'vitest';
import { formatFileSize } from '../../renderers/react';

describe('formatFileSize', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [300, '300 bytes'],
    [1023, '1023 bytes'],
    [1024, '1 kB'],
    [1075, '1 kB'], // 1.0498 kB
    [1076, '1.1 kB'], // 1.0508 kB
    [1536, '1.5 kB'],
    [12_800, '12.5 kB'],
    [127_703, '124.7 kB'],
    [1_048_524, '1023.9 kB'],
    [1_048_525, '1 MB'], // 1023.95 kB rounds to 1024 kB: one MB, not "1024 kB"
    [1_048_576, '1 MB'], // the largest file SPEC 5.6 accepts
  ])('%i bytes read "%s"', (bytes, shown) => {
    expect(formatFileSize(bytes)).toBe(shown);
  });
});
