import { describe, expect, it } from 'vitest';
import {
  addAnotherKey,
  assertMaxComponents,
  canAddAnother,
  ConfigurationError,
} from '../../runtime';

describe('add-another (SPEC 4.8)', () => {
  it('names instances key, key_2, key_3 …', () => {
    expect([1, 2, 3].map((n) => addAnotherKey('award', n))).toEqual([
      'award',
      'award_2',
      'award_3',
    ]);
  });

  it('shows the button while logged in and below the maximum', () => {
    expect(canAddAnother(1, 3, true)).toBe(true);
    expect(canAddAnother(3, 3, true)).toBe(false);
    expect(canAddAnother(1, 3, false)).toBe(false);
  });

  it('never allows a maximum above 10', () => {
    expect(assertMaxComponents(10)).toBe(10);
    expect(() => assertMaxComponents(11)).toThrow(
      new ConfigurationError('The maxNumberOfComponents cannot exceed 10'),
    );
    expect(() => canAddAnother(1, 11, true)).toThrow('The maxNumberOfComponents cannot exceed 10');
  });
});
