import { describe, expect, it } from 'vitest';
import { deriveWebStatus } from '../../contract';

const entries = (...values: string[]) => values.map((web_status) => ({ web_status }));

describe('deriveWebStatus (SPEC 4.1)', () => {
  it('counts distinct values: 0 → null, 1 → started, 2 → validating, 3 → submitted', () => {
    expect(deriveWebStatus([])).toBeNull();
    expect(deriveWebStatus(entries('started'))).toBe('started');
    expect(deriveWebStatus(entries('started', 'validating'))).toBe('validating');
    expect(deriveWebStatus(entries('started', 'validating', 'submitted'))).toBe('submitted');
  });

  it('ignores repeated values', () => {
    expect(deriveWebStatus(entries('started', 'started', 'started'))).toBe('started');
    expect(deriveWebStatus(entries('started', 'validating', 'validating', 'started'))).toBe(
      'validating',
    );
  });

  it('counts distinct values, not their names', () => {
    expect(deriveWebStatus(entries('a', 'b'))).toBe('validating');
    expect(deriveWebStatus(entries('a', 'b', 'c', 'd'))).toBe('submitted');
  });
});
