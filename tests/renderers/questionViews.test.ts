/**
 * D178: a question's view is a union discriminated by `questionKind`; each kind's view carries only
 * its own fields, and each renderer of a set receives its own kind's view. The type-level checks
 * (`expectTypeOf`, `@ts-expect-error`) fail `npm run typecheck` if the union collapses into one
 * shape with every kind's optional fields; the runtime checks fail if the views carry them.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  loadDefinition,
  QUESTION_KINDS,
  questionsOf,
  relatedKeys,
  visibleView,
  type OptionEntry,
  type QuestionKind,
  type QuestionView,
  type SelectQuestion,
} from '../../runtime';
import type { QuestionRendererProps, RendererSet } from '../../renderers/registry';

const definition = loadDefinition({
  id: 'views',
  title: 'Every kind',
  version: 1,
  defaultRoute: '/all',
  optionLists: {
    yesNo: [
      { value: '--', label: '--' },
      { value: 'Y', label: 'Yes' },
      { value: 'N', label: 'No' },
    ],
  },
  pages: [
    {
      id: 'all',
      path: '/all',
      title: 'All kinds',
      children: [
        { kind: 'text', key: 'first_name', label: 'First name', maxLength: 30 },
        { kind: 'textarea', key: 'essay', label: 'Essay' },
        { kind: 'date', key: 'birth_date', label: 'Birth date' },
        { kind: 'phone', key: 'phone_home', label: 'Home phone' },
        { kind: 'ssn', key: 'ssn', label: 'SSN' },
        { kind: 'number', key: 'hs_gpa', label: 'GPA' },
        { kind: 'select', key: 'colour', label: 'Colour', options: 'yesNo', description: false },
        {
          kind: 'radio',
          key: 'has_pets',
          label: 'Pets?',
          options: 'yesNo',
          content: { Y: [{ kind: 'text', key: 'pet_name', label: 'Pet name' }] },
        },
        { kind: 'checkbox', key: 'agree', label: 'I agree' },
        {
          kind: 'monthYear',
          key: 'grad_month',
          yearKey: 'grad_year',
          label: 'Graduation',
          years: { start: 2024, length: 3, direction: 'ascending' },
        },
        {
          kind: 'lookup',
          key: 'hs_name',
          label: 'High school',
          category: 'hs_ceeb',
          prefix: 'hs_',
          fills: ['name', 'ceeb', 'city'],
        },
        { kind: 'file', key: 'transcript', label: 'Transcript' },
      ],
    },
  ],
});

const COMMON = ['instance', 'key', 'kind', 'question', 'questionKind', 'required'];

/** What each kind's view adds to the common fields: nothing else. */
const OWN_FIELDS: Record<QuestionKind, readonly string[]> = {
  text: ['maxLength'],
  textarea: ['maxLength'],
  phone: ['maxLength'],
  ssn: ['maxLength'],
  number: ['maxLength'],
  date: [],
  checkbox: [],
  file: [],
  select: ['descKey', 'options'],
  radio: ['content', 'descKey', 'options'],
  monthYear: ['monthOptions', 'yearKey', 'yearOptions'],
  lookup: ['fillKeys', 'maxLength'],
};

const views = questionsOf(
  visibleView(definition, { has_pets: 'Y' }, { now: new Date('2026-11-02T12:00:00Z') }),
);
const viewOf = (key: string) => views.find((view) => view.key === key);

describe('a question view carries only its own kind', () => {
  it('has the common fields and its kind’s fields, for every kind', () => {
    expect(new Set(views.map((view) => view.questionKind))).toEqual(new Set(QUESTION_KINDS));
    for (const view of views) {
      expect(view.questionKind, view.key).toBe(view.question.kind);
      expect(Object.keys(view).sort(), view.key).toEqual(
        [...COMMON, ...OWN_FIELDS[view.questionKind]].sort(),
      );
    }
  });

  it('resolves each kind’s fields', () => {
    expect(viewOf('first_name')).toMatchObject({ maxLength: 30 });
    expect(viewOf('essay')).toMatchObject({ maxLength: 1500 });
    expect(viewOf('colour')).toMatchObject({ descKey: null });
    expect(viewOf('has_pets')).toMatchObject({ descKey: 'has_pets_desc' });
    const month = viewOf('grad_month');
    expect(month?.questionKind === 'monthYear' && month.yearOptions.map((o) => o.value)).toEqual([
      '--',
      '2024',
      '2025',
      '2026',
    ]);
    expect(month && relatedKeys(month)).toEqual(['grad_year']);
    const radio = viewOf('has_pets');
    expect(radio?.questionKind === 'radio' && radio.content.map((node) => node.kind)).toEqual([
      'question',
    ]);
    const lookup = viewOf('hs_name');
    expect(lookup?.questionKind === 'lookup' && lookup.fillKeys).toEqual([
      'hs_name',
      'hs_ceeb',
      'hs_city',
    ]);
    expect(lookup && relatedKeys(lookup)).toEqual(['hs_ceeb', 'hs_city']);
  });
});

describe('the types follow the kind', () => {
  it('gives each renderer its own kind’s view', () => {
    expectTypeOf<QuestionRendererProps<'select'>['view']>().toEqualTypeOf<QuestionView<'select'>>();
    expectTypeOf<
      QuestionRendererProps<'select'>['view']['question']
    >().toEqualTypeOf<SelectQuestion>();
    expectTypeOf<RendererSet['select']>()
      .parameter(0)
      .toEqualTypeOf<QuestionRendererProps<'select'>>();
  });

  it('keeps a kind’s fields off the other kinds’ views', () => {
    expectTypeOf<QuestionView<'select'>>().toHaveProperty('options');
    expectTypeOf<QuestionView<'select'>>().not.toHaveProperty('yearKey');
    expectTypeOf<QuestionView<'select'>>().not.toHaveProperty('monthOptions');
    expectTypeOf<QuestionView<'select'>>().not.toHaveProperty('content');
    expectTypeOf<QuestionView<'monthYear'>>().toHaveProperty('yearKey').toEqualTypeOf<string>();
    expectTypeOf<QuestionView<'monthYear'>>().not.toHaveProperty('options');
    expectTypeOf<QuestionView<'text'>>().toHaveProperty('maxLength').toEqualTypeOf<number>();
    expectTypeOf<QuestionView<'text'>>().not.toHaveProperty('descKey');
    expectTypeOf<QuestionView<'date'>>().not.toHaveProperty('maxLength');
    expectTypeOf<QuestionView<'checkbox'>>().not.toHaveProperty('fillKeys');
    // A view of any kind has only the common fields until `questionKind` narrows it.
    expectTypeOf<QuestionView>().not.toHaveProperty('yearKey');
    expectTypeOf<QuestionView>().not.toHaveProperty('options');
    expectTypeOf<keyof QuestionView>().toEqualTypeOf<
      'instance' | 'key' | 'kind' | 'question' | 'questionKind' | 'required'
    >();
  });

  it('narrows a view by its kind', () => {
    const narrowed = (view: QuestionView): readonly OptionEntry[] | string | null => {
      switch (view.questionKind) {
        case 'monthYear':
          expectTypeOf(view).toEqualTypeOf<QuestionView<'monthYear'>>();
          return view.yearKey;
        case 'select':
        case 'radio':
          return view.options;
        default:
          return null;
      }
    };
    expect(views.map(narrowed).filter((found) => found !== null)).toHaveLength(3);
  });

  it('refuses a select renderer that reads a month/year field', () => {
    const selectReadingAYear = (props: QuestionRendererProps<'select'>) =>
      // @ts-expect-error a select's view has no year key
      props.view.yearKey;
    // @ts-expect-error a month/year renderer does not draw a select
    const monthYearForSelect: RendererSet['select'] = (props: QuestionRendererProps<'monthYear'>) =>
      props.view.yearKey;
    expect([selectReadingAYear, monthYearForSelect]).toHaveLength(2);
  });
});
