import { describe, expect, it } from 'vitest';
import { answerProblems, dataModelKeys, keySpec } from '../../runtime';
import { applicationDefinition } from '../../definitions';
import { miniDefinition } from '../fixtures/miniDefinition';
import { documentKeys, specAnswerKeys } from '../fixtures/specDataModel';

describe('dataModelKeys on a fixture', () => {
  const keys = dataModelKeys(miniDefinition);

  it('expands prefix slots with the slot prefix', () => {
    expect(keys).toEqual(
      expect.arrayContaining(['person_email', 'person_2_email', 'person_3_email']),
    );
    expect(keys).not.toContain('email');
  });

  it('expands add-another instances with a _N suffix, the first without one', () => {
    expect(keys).toEqual(expect.arrayContaining(['award', 'award_2', 'award_3']));
    expect(keys).not.toContain('award_1');
    expect(keys).not.toContain('award_4');
  });

  it('adds _desc keys for select and radio questions, per slot', () => {
    expect(keys).toEqual(
      expect.arrayContaining(['colour_desc', 'shade_desc', 'has_pets_desc', 'person_2_works_desc']),
    );
    expect(keys).not.toContain('name_desc');
  });

  it('lists the month and the year key of a month/year question', () => {
    expect(keys).toEqual(expect.arrayContaining(['start_month', 'start_year']));
  });

  it('lists each key once, including keys that appear in several exclusive cases', () => {
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.filter((key) => key === 'shared')).toHaveLength(1);
  });

  it('includes checkbox trigger keys, hidden content and tab content', () => {
    expect(keys).toEqual(
      expect.arrayContaining(['same_address', 'other_address', 'note', 'proof_file', 'tracking']),
    );
  });
});

describe('dataModelKeys on the institution definition (SPEC 3.3)', () => {
  const keys = new Set(dataModelKeys(applicationDefinition));

  it('contains every answer key the spec names, slots expanded', () => {
    const missing = specAnswerKeys.filter((key) => !keys.has(key));
    expect(missing).toEqual([]);
  });

  it('contains nothing but spec keys, their _desc labels and the document questions', () => {
    const spec = new Set([...specAnswerKeys, ...documentKeys]);
    const extra = [...keys].filter(
      (key) => !spec.has(key) && !(key.endsWith('_desc') && spec.has(key.slice(0, -5))),
    );
    expect(extra).toEqual([]);
  });

  it('stores a _desc label for select and radio questions', () => {
    for (const key of [
      'gender_desc',
      'country_desc',
      'citizenship_type_desc',
      'parent_2_relationship_desc',
      'entry_term_desc',
    ]) {
      expect(keys.has(key), key).toBe(true);
    }
  });

  it('types check boxes as booleans and documents as documents', () => {
    expect(keySpec(applicationDefinition, 'legal_agree')).toEqual({ type: 'boolean' });
    expect(keySpec(applicationDefinition, 'activity_3_senior')).toEqual({ type: 'boolean' });
    expect(keySpec(applicationDefinition, 'parent_addr_same_as_perm_addr')).toEqual({
      type: 'boolean',
    });
    expect(keySpec(applicationDefinition, 'transcript_file')).toEqual({ type: 'document' });
    expect(keySpec(applicationDefinition, 'birth_date')).toEqual({ type: 'date' });
    expect(keySpec(applicationDefinition, 'mailing_addr_effective_date')).toEqual({ type: 'date' });
    expect(keySpec(applicationDefinition, 'first_name')).toEqual({ type: 'text', maxLength: 45 });
    expect(keySpec(applicationDefinition, 'conviction_comment')).toEqual({
      type: 'text',
      maxLength: 7000,
    });
  });
});

describe('answerProblems (the server-side shape check)', () => {
  it('accepts a map of known keys with the right types', () => {
    expect(
      answerProblems(applicationDefinition, {
        first_name: 'Ada',
        legal_agree: true,
        transcript_file: 'ANSWERED',
        ssn: '',
      }),
    ).toEqual([]);
  });

  it('accepts empty values for every kind of key', () => {
    expect(
      answerProblems(applicationDefinition, {
        first_name: null,
        legal_agree: '',
        transcript_file: null,
      }),
    ).toEqual([]);
  });

  it('names keys outside the data model, including prototype keys', () => {
    const hostile = JSON.parse(
      '{"__proto__": {"isAdmin": true}, "constructor": 1, "status": "submitted", "first_name": "Ada"}',
    );
    expect(answerProblems(applicationDefinition, hostile)).toEqual([
      { key: '__proto__', reason: 'unknownKey' },
      { key: 'constructor', reason: 'unknownKey' },
      { key: 'status', reason: 'unknownKey' },
    ]);
  });

  it('names values of the wrong type and values over their length', () => {
    expect(
      answerProblems(applicationDefinition, {
        first_name: 42,
        legal_agree: 'yes',
        transcript_file: 'file.pdf',
        last_name: 'x'.repeat(46),
        conviction_comment: 'y'.repeat(7000),
      }),
    ).toEqual([
      { key: 'first_name', reason: 'wrongType' },
      { key: 'legal_agree', reason: 'wrongType' },
      { key: 'transcript_file', reason: 'wrongType' },
      { key: 'last_name', reason: 'tooLong' },
    ]);
  });

  it('accepts a date only as a real calendar date written YYYY-MM-DD (D128)', () => {
    expect(
      answerProblems(applicationDefinition, {
        birth_date: '2008-02-29',
        mailing_addr_effective_date: '',
      }),
    ).toEqual([]);
    for (const value of [
      'hello',
      '2008-02-30',
      '2007-02-29',
      '2008-13-01',
      '2008-00-10',
      '02/30/2008',
      '03/15/2008',
      '2008-3-15',
      ' 2008-03-15',
      '2008-03-15T00:00:00Z',
      '2008-03-15\u0000',
      '2008-03-\ud80015',
      '２００８-03-15',
      '2008-03-15'.repeat(1000),
      20080315,
      true,
      ['2008-03-15'],
      { value: '2008-03-15' },
    ])
      expect(answerProblems(applicationDefinition, { birth_date: value }), String(value)).toEqual([
        { key: 'birth_date', reason: 'wrongType' },
      ]);
  });

  it('rejects something that is not an answer map at all', () => {
    expect(answerProblems(applicationDefinition, [])).toEqual([{ key: '', reason: 'wrongType' }]);
    expect(answerProblems(applicationDefinition, 'answers')).toEqual([
      { key: '', reason: 'wrongType' },
    ]);
  });
});

describe('add-another and tab groups', () => {
  it('lists every add-another button with its maximum, and every tab group', async () => {
    const { addAnotherGroups, tabGroups } = await import('../../runtime');
    expect(Object.fromEntries(addAnotherGroups(applicationDefinition))).toEqual({
      parent: 2,
      legacy: 3,
      college: 3,
      activity: 4,
      honors: 4,
    });
    expect([...tabGroups(applicationDefinition).keys()]).toEqual(['transcript']);
    expect(Object.fromEntries(addAnotherGroups(miniDefinition))).toEqual({ person: 3, award: 3 });
    expect(tabGroups(miniDefinition).get('proof')?.defaultTab).toBe('upload');
  });
});
