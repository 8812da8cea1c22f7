import { describe, expect, it } from 'vitest';
import { checkDefinition, loadDefinition, pageOfKey, type Definition } from '../../runtime';
import { applicationDefinition } from '../../definitions';
import { miniDefinition } from '../fixtures/miniDefinition';
import { documentKeys, specAnswerKeys } from '../fixtures/specDataModel';

function withChange(change: (definition: any) => void): Definition {
  const copy = structuredClone(miniDefinition) as any;
  change(copy);
  return loadDefinition(copy);
}

describe('developer-time checks (SPEC 5.8)', () => {
  it('finds no problem in the institution definition against the SPEC 3.3 data model', () => {
    const tenantDataModel = [
      ...specAnswerKeys,
      ...documentKeys,
      ...specAnswerKeys.map((key) => `${key}_desc`),
    ];
    expect(checkDefinition(applicationDefinition, { tenantDataModel })).toEqual([]);
  });

  it('reports keys present on several pages with the spec message', () => {
    const definition = withChange((d) =>
      d.pages[1].children.push({ kind: 'text', key: 'name', label: 'Name again' }),
    );
    expect(checkDefinition(definition)).toEqual([
      expect.objectContaining({
        code: 'duplicateKeys',
        level: 'error',
        message:
          'Your ValidationErrorSummary implementation uses keys that are present in multiple pages. The following keys are duplicates: name',
      }),
      // The same key as a form check, with the path of the second question (D194).
      expect.objectContaining({ code: 'sharedKey', path: 'pages[1].children[8]', keys: ['name'] }),
    ]);
  });

  it('reports keys outside the tenant data model, including keys only referenced by conditions', () => {
    const definition = withChange((d) => (d.pages[0].children[3].hideWhen.valueKey = 'has_pest'));
    const problems = checkDefinition(definition);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatchObject({ code: 'extraKeys', keys: ['has_pest'] });
    expect(problems[1]).toMatchObject({
      code: 'unknownKey',
      path: 'pages[0].children[3].hideWhen.valueKey',
      keys: ['has_pest'],
    });
    expect(problems[0]!.message).toBe(
      'Your implementation uses keys that are not present in the tenant dataModel. This can cause severe data issues downstream. The following keys are extras: has_pest',
    );
  });

  it('reports keys missing from a given tenant data model', () => {
    const problems = checkDefinition(miniDefinition, { tenantDataModel: ['name'] });
    expect(problems[0]).toMatchObject({ code: 'extraKeys' });
    expect(problems[0]!.keys).toContain('colour');
  });

  it('reports a lookup prefix that is not part of its key', () => {
    const definition = withChange((d) =>
      d.pages[0].children.push({
        kind: 'lookup',
        key: 'school',
        label: 'School',
        category: 'hs_ceeb',
        prefix: 'hs_',
        fills: ['ceeb'],
      }),
    );
    expect(checkDefinition(definition)).toEqual([
      expect.objectContaining({
        code: 'prefixNotInKey',
        message: expect.stringContaining(
          'Your prefix (hs_) is not part of the provided key (school)',
        ),
      }),
    ]);
  });

  it('warns about summary keys that belong to no page', () => {
    expect(checkDefinition(miniDefinition, { summaryKeys: ['name', 'ghost'] })).toEqual([
      expect.objectContaining({ level: 'warning', code: 'noPage', keys: ['ghost'] }),
    ]);
    expect(pageOfKey(miniDefinition, 'ghost')).toBeNull();
    expect(pageOfKey(miniDefinition, 'person_2_email')).toEqual({ id: 'two', path: '/two' });
    expect(pageOfKey(applicationDefinition, 'hs_ceeb')).toEqual({
      id: 'education',
      path: '/education',
    });
  });

  it('reports option lists that do not start with the blank entry', () => {
    const definition = withChange((d) => d.optionLists.colours.shift());
    expect(checkDefinition(definition)).toEqual([
      expect.objectContaining({ code: 'blankNotFirst' }),
    ]);
  });
});
