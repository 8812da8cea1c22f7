// @vitest-environment jsdom
/**
 * The renderer conformance suite (ARCHITECTURE.md "Renderers"): written once, run against every
 * renderer set — the interactive set, the print set and the plain set an integrator would write
 * (tests/renderers/plain). Each set says only how a user reads a value off its output.
 */
import { cleanup, queryAllByRole, render, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { BLANK, loadDefinition, QUESTION_KINDS, visiblePage, type ViewState } from '../../runtime';
import { interactiveRenderers } from '../../renderers/interactive';
import { printRenderers, PrintProvider } from '../../renderers/print';
import { FormProvider, PageOutlet, staticAnswers, staticErrors } from '../../renderers/react';
import type { RendererSet } from '../../renderers/registry';
import { plainRenderers } from './plain/plainRenderers';

const definition = loadDefinition({
  id: 'conformance',
  title: 'Conformance form',
  version: 1,
  defaultRoute: '/all',
  optionLists: {
    colours: [
      { value: '--', label: '--' },
      { value: 'R', label: 'Red' },
      { value: 'G', label: 'Green' },
    ],
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
        { kind: 'paragraph', id: 'intro', text: 'Tell us about yourself.' },
        {
          kind: 'section',
          id: 'basics',
          title: 'Basics',
          children: [
            { kind: 'text', key: 'first_name', label: 'First name' },
            { kind: 'textarea', key: 'essay', label: 'Essay' },
            { kind: 'date', key: 'birth_date', label: 'Birth date' },
            { kind: 'phone', key: 'phone_home', label: 'Home phone' },
            { kind: 'ssn', key: 'ssn', label: 'Social Security number' },
            { kind: 'number', key: 'hs_gpa', label: 'GPA', min: 0, max: 5, step: 0.01 },
            { kind: 'select', key: 'colour', label: 'Favourite colour', options: 'colours' },
            { kind: 'radio', key: 'has_pets', label: 'Do you have pets?', options: 'yesNo' },
            { kind: 'checkbox', key: 'legal_agree', label: 'I agree to the terms' },
            {
              kind: 'monthYear',
              key: 'grad_month',
              yearKey: 'grad_year',
              label: 'Graduation date',
              years: { start: 2024, length: 3, direction: 'ascending' },
            },
            {
              kind: 'lookup',
              key: 'hs_name',
              label: 'High school',
              category: 'hs_ceeb',
              prefix: 'hs_',
              fills: ['ceeb', 'city'],
            },
            { kind: 'file', key: 'transcript', label: 'Transcript' },
          ],
        },
        {
          kind: 'section',
          id: 'pets',
          title: 'Your pets',
          hideWhen: { valueKey: 'has_pets', operator: 'notEquals', target: 'Y' },
          clears: ['pet_name'],
          children: [{ kind: 'text', key: 'pet_name', label: 'Pet name' }],
        },
        {
          kind: 'repeat',
          id: 'awards',
          title: 'Award {n}',
          instances: { kind: 'suffix', max: 3 },
          addAnother: { buttonId: 'award', label: 'Add Another' },
          children: [{ kind: 'text', key: 'award', label: 'Award name' }],
        },
        {
          kind: 'tabs',
          id: 'proof',
          label: 'Proof of residence',
          defaultTab: 'upload',
          tabs: [
            {
              name: 'upload',
              label: 'Upload',
              children: [{ kind: 'text', key: 'upload_note', label: 'Upload note' }],
            },
            {
              name: 'mail',
              label: 'Mail',
              children: [{ kind: 'text', key: 'tracking', label: 'Tracking number' }],
            },
          ],
        },
      ],
    },
  ],
});

const NOW = new Date('2025-06-01T12:00:00Z');

/** How a user reads the value of the question labelled `label` off a form of native controls. */
function formValue(container: HTMLElement, label: string): string {
  const groups = [
    ...queryAllByRole(container, 'radiogroup', { name: label }),
    ...queryAllByRole(container, 'group', { name: label }),
  ];
  const group = groups[0];
  if (group) {
    const radio = group.querySelector<HTMLInputElement>('input[type=radio]:checked');
    if (radio) {
      const byFor = radio.id ? container.querySelector(`label[for="${radio.id}"]`) : null;
      return (byFor ?? radio.closest('label'))?.textContent?.trim() ?? '';
    }
    return [...group.querySelectorAll('select')]
      .map((select) => selectedText(select))
      .filter(Boolean)
      .join(' ');
  }
  const control = within(container).getByLabelText(label, { exact: true });
  if (control instanceof HTMLInputElement && control.type === 'checkbox')
    return control.checked ? '[X]' : '[ ]';
  if (control instanceof HTMLSelectElement) return selectedText(control);
  if (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement)
    return control.value;
  return control.textContent ?? '';
}

function selectedText(select: HTMLSelectElement): string {
  const option = select.selectedOptions[0];
  return !option || option.value === BLANK ? '' : (option.textContent ?? '');
}

/** How a user reads a value off the print set: the text beside the label. */
function printValue(container: HTMLElement, label: string): string {
  for (const field of container.querySelectorAll('.pr-field')) {
    if (field.querySelector('.pr-label')?.textContent === label)
      return field.querySelector('.pr-value')?.textContent ?? '';
  }
  throw new Error(`No printed question labelled "${label}"`);
}

interface SetUnderTest {
  readonly name: string;
  readonly renderers: RendererSet;
  readonly readValue: (container: HTMLElement, label: string) => string;
  readonly wrap?: (children: ReactNode) => ReactNode;
  /** A printed copy leaves out an optional question nobody answered (D161); a form shows it empty. */
  readonly leavesOutUnanswered?: boolean;
}

const sets: SetUnderTest[] = [
  { name: 'interactive', renderers: interactiveRenderers, readValue: formValue },
  {
    name: 'print',
    renderers: printRenderers,
    readValue: printValue,
    leavesOutUnanswered: true,
    wrap: (children) => (
      <PrintProvider value={{ documents: new Set(['transcript']) }}>{children}</PrintProvider>
    ),
  },
  { name: 'plain', renderers: plainRenderers, readValue: formValue },
];

const ANSWERS = {
  first_name: 'Ada',
  essay: 'Numbers and engines.',
  birth_date: '2007-12-10',
  phone_home: '(212) 555-0123',
  ssn: '123-45-6789',
  hs_gpa: '3.9',
  colour: 'G',
  colour_desc: 'Green',
  has_pets: 'Y',
  has_pets_desc: 'Yes',
  legal_agree: true,
  grad_month: '5',
  grad_year: '2025',
  hs_name: 'Central High School',
  pet_name: 'Babbage',
  award: 'Gold',
  award_2: 'Silver',
};

afterEach(cleanup);

it('the definition holds a question of every kind, so every set draws a new kind here', () => {
  const used = new Set<unknown>();
  JSON.stringify(definition, (name, value: unknown) => {
    if (name === 'kind') used.add(value);
    return value;
  });
  expect(QUESTION_KINDS.filter((kind) => !used.has(kind))).toEqual([]);
});

describe.each(sets)('the $name renderer set', (set) => {
  function show(answers: Record<string, unknown>, state: ViewState = {}) {
    const page = visiblePage(definition, answers, 'all', { ...state, now: NOW });
    if (!page) throw new Error('no page');
    const tree = (
      <FormProvider
        value={{
          renderers: set.renderers,
          answers: staticAnswers(answers),
          errors: staticErrors({}),
          anonymous: false,
          actions: {},
        }}
      >
        <main>
          <PageOutlet page={page} />
        </main>
      </FormProvider>
    );
    return render(<>{set.wrap ? set.wrap(tree) : tree}</>).container;
  }

  it('registers a renderer for every question kind and every container', () => {
    const expected = [
      ...QUESTION_KINDS,
      'paragraph',
      'section',
      'group',
      'repeat',
      'tabs',
      'buttonTrigger',
      'checkboxTrigger',
    ].sort();
    expect(Object.keys(set.renderers).sort()).toEqual(expected);
    for (const renderer of Object.values(set.renderers)) expect(typeof renderer).toBe('function');
  });

  it('shows the label of every visible question and the section titles', () => {
    const container = show(ANSWERS);
    const text = container.textContent ?? '';
    for (const label of [
      'First name',
      'Essay',
      'Birth date',
      'Home phone',
      'Social Security number',
      'GPA',
      'Favourite colour',
      'Do you have pets?',
      'I agree to the terms',
      'Graduation date',
      'High school',
      'Transcript',
      'Pet name',
      'Award name',
    ])
      expect(text).toContain(label);
    expect(text).toContain('Basics');
    expect(text).toContain('Tell us about yourself.');
  });

  it('shows the values as the applicant gave them, choices by their label', () => {
    const container = show(ANSWERS);
    expect(set.readValue(container, 'First name')).toBe('Ada');
    expect(set.readValue(container, 'Essay')).toBe('Numbers and engines.');
    expect(set.readValue(container, 'GPA')).toBe('3.9');
    expect(set.readValue(container, 'Favourite colour')).toBe('Green');
    expect(set.readValue(container, 'Do you have pets?')).toBe('Yes');
    expect(set.readValue(container, 'I agree to the terms')).toBe('[X]');
    expect(set.readValue(container, 'Graduation date')).toBe('May 2025');
    expect(set.readValue(container, 'Pet name')).toBe('Babbage');
  });

  it('shows an unticked box as unticked and an unanswered choice as empty', () => {
    const container = show({ ...ANSWERS, legal_agree: false, colour: '', colour_desc: '' });
    expect(set.readValue(container, 'I agree to the terms')).toBe('[ ]');
    if (set.leavesOutUnanswered) expect(container.textContent).not.toContain('Favourite colour');
    else expect(set.readValue(container, 'Favourite colour')).toBe('');
  });

  it('leaves out a hidden section entirely', () => {
    const container = show({ ...ANSWERS, has_pets: 'N', has_pets_desc: 'No', pet_name: '' });
    expect(container.textContent).not.toContain('Your pets');
    expect(container.textContent).not.toContain('Pet name');
  });

  it('shows every repeated instance that holds answers, each with its title and value', () => {
    const container = show(ANSWERS, { addAnother: { award: 2 } });
    const text = container.textContent ?? '';
    expect(text).toContain('Award 1');
    expect(text).toContain('Award 2');
    expect(text).not.toContain('Award 3');
    const values = [...container.querySelectorAll('*')]
      .filter((el) => el.children.length === 0 || el instanceof HTMLInputElement)
      .map((el) => (el instanceof HTMLInputElement ? el.value : el.textContent));
    expect(values).toContain('Gold');
    expect(values).toContain('Silver');
  });

  it("shows only the chosen tab's content", () => {
    const mail = show({ ...ANSWERS, tracking: 'RR123' }, { tabs: { proof: 'mail' } });
    expect(mail.textContent).toContain('Tracking number');
    expect(mail.textContent).not.toContain('Upload note');
    expect(set.readValue(mail, 'Tracking number')).toBe('RR123');
    cleanup();
    const upload = show({ ...ANSWERS, upload_note: 'Scanned lease' });
    expect(upload.textContent).toContain('Upload note');
    expect(upload.textContent).not.toContain('Tracking number');
  });
});
