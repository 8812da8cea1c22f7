import { describe, expect, it } from 'vitest';
import { answersForCopy, keysMaskedInCopies, loadDefinition, maskLastFour } from '../../runtime';
import { applicationDefinition } from '../../definitions';
import { miniDefinition } from '../fixtures/miniDefinition';

describe('answers in copies of the application', () => {
  it('masks what the definition marks: the institution shows only the SSN’s last four digits', () => {
    expect([...keysMaskedInCopies(applicationDefinition)]).toEqual(['ssn']);
    const answers = { ssn: '123-45-6789', first_name: 'Ada', ssn_unrelated: undefined };
    const copy = answersForCopy(applicationDefinition, answers);
    expect(copy).toEqual({ ssn: '***-**-6789', first_name: 'Ada', ssn_unrelated: undefined });
    expect(answers.ssn).toBe('123-45-6789');
  });

  it('leaves every answer as given when nothing is marked', () => {
    expect(keysMaskedInCopies(miniDefinition).size).toBe(0);
    const marked = loadDefinition({
      ...miniDefinition,
      id: 'mini-ssn',
      pages: [
        {
          id: 'p',
          path: '/p',
          title: 'P',
          children: [{ kind: 'ssn', key: 'tax_id', label: 'Tax id', inCopies: 'full' }],
        },
      ],
    });
    expect(answersForCopy(marked, { tax_id: '123-45-6789' })).toEqual({ tax_id: '123-45-6789' });
  });

  it('keeps empty and non-text values as they are', () => {
    expect(maskLastFour('')).toBe('');
    expect(maskLastFour('--')).toBe('--');
    expect(maskLastFour(null)).toBeNull();
    expect(maskLastFour('987654321')).toBe('***-**-4321');
  });
});
