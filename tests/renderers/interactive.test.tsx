// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { useMemo, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadDefinition, visiblePage, type ViewState } from '../../runtime';
import { interactiveRenderers } from '../../renderers/interactive';
import { documentText } from '../../contract/words';
import {
  NO_DOCUMENT,
  ErrorStore,
  FormProvider,
  MissingFormProviderError,
  PageOutlet,
  usePageView,
  type AnswerSource,
  type DocumentSource,
  type FormActions,
} from '../../renderers/react';
import type { AnswerValue } from '../../renderers/registry';

/** One question of each kind, a section, a repeat with "Add Another", tabs and both triggers. */
const definition = loadDefinition({
  id: 'renderers',
  title: 'Renderer test form',
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
          description: 'The essentials.',
          children: [
            {
              kind: 'text',
              key: 'first_name',
              label: 'First name',
              help: 'As on your passport.',
              autoComplete: 'given-name',
            },
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
        {
          kind: 'trigger',
          mode: 'button',
          id: 'extra',
          label: 'Add a note',
          after: [{ kind: 'textarea', key: 'note', label: 'Note' }],
        },
        {
          kind: 'trigger',
          mode: 'checkbox',
          id: 'same',
          key: 'same_address',
          label: 'Same address',
          before: [{ kind: 'text', key: 'other_address', label: 'Other address' }],
          after: [{ kind: 'paragraph', id: 'same_note', text: 'We will use your address.' }],
        },
      ],
    },
  ],
});

const NOW = new Date('2025-06-01T12:00:00Z');

/** An in-memory answer store: a Map, and listeners called on every change. */
function memoryAnswers(initial: Readonly<Record<string, unknown>>) {
  const values = new Map<string, unknown>(Object.entries(initial));
  const listeners = new Set<() => void>();
  const setAnswers = vi.fn((next: Readonly<Record<string, AnswerValue>>) => {
    for (const [key, value] of Object.entries(next)) values.set(key, value);
    for (const listener of listeners) listener();
  });
  const source: AnswerSource = {
    getAnswer: (key) => values.get(key),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setAnswers,
  };
  return { source, values, setAnswers };
}

interface Setup {
  answers?: Readonly<Record<string, unknown>>;
  errors?: Readonly<Record<string, readonly string[]>>;
  anonymous?: boolean;
  actions?: FormActions;
  state?: ViewState;
  documents?: DocumentSource;
}

function renderPage({
  answers = {},
  errors = {},
  anonymous = false,
  actions,
  state,
  documents,
}: Setup = {}) {
  const { source, values, setAnswers } = memoryAnswers(answers);
  const errorStore = new ErrorStore();
  errorStore.set(errors);
  const allActions: FormActions = actions ?? {
    onAddAnother: vi.fn(),
    onTabChange: vi.fn(),
    onReveal: vi.fn(),
    onBlur: vi.fn(),
  };
  const page = visiblePage(definition, answers, 'all', { ...state, now: NOW });
  if (!page) throw new Error('page not found');
  const user = userEvent.setup();
  const result = render(
    <FormProvider
      value={{
        renderers: interactiveRenderers,
        answers: source,
        errors: errorStore,
        anonymous,
        actions: allActions,
        documents,
      }}
    >
      <main>
        <h1>{page.title}</h1>
        <PageOutlet page={page} />
      </main>
    </FormProvider>,
  );
  return { ...result, user, values, setAnswers, errorStore, actions: allActions };
}

/** jsdom has no layout or style sheets: contrast is checked in the browser, not here. */
const AXE_OPTIONS: axe.RunOptions = {
  rules: { region: { enabled: false }, 'color-contrast': { enabled: false } },
};

/** A page that follows the answers and the UI state, as the app's page does. */
function LivePage({ source }: { source: AnswerSource }) {
  const [state, setState] = useState<ViewState>({});
  const actions = useMemo<FormActions>(
    () => ({
      onAddAnother: (id) =>
        setState((s) => ({ ...s, addAnother: { [id]: (s.addAnother?.[id] ?? 1) + 1 } })),
      onTabChange: (id, tab) => setState((s) => ({ ...s, tabs: { [id]: tab } })),
      onReveal: (id) => setState((s) => ({ ...s, triggers: { [id]: true } })),
    }),
    [],
  );
  const page = usePageView(definition, 'all', source, state, NOW);
  const errors = useMemo(() => new ErrorStore(), []);
  return (
    <FormProvider
      value={{
        renderers: interactiveRenderers,
        answers: source,
        errors,
        anonymous: false,
        actions,
      }}
    >
      <main>{page ? <PageOutlet page={page} /> : null}</main>
    </FormProvider>
  );
}

afterEach(cleanup);

describe('interactive renderers: every kind draws its label and stores its value', () => {
  it('text: a labelled input with the default maximum length and help', async () => {
    const { user, values } = renderPage();
    const input = screen.getByRole('textbox', { name: 'First name' });
    expect(input).toHaveProperty('id', 'first_name');
    expect(input.getAttribute('maxlength')).toBe('45');
    expect(input.getAttribute('autocomplete')).toBe('given-name');
    expect(input.getAttribute('aria-describedby')).toBe('first_name--help');
    expect(document.getElementById('first_name--help')?.textContent).toBe('As on your passport.');
    await user.type(input, 'Ada');
    expect(values.get('first_name')).toBe('Ada');
    expect(input).toHaveProperty('value', 'Ada');
  });

  it('treats empty, blank and non-text answers as empty', () => {
    renderPage({ answers: { first_name: '--', hs_name: null, essay: { no: 1 } } });
    expect(screen.getByRole('textbox', { name: 'First name' })).toHaveProperty('value', '');
    expect(screen.getByRole('textbox', { name: 'High school' })).toHaveProperty('value', '');
    expect(screen.getByRole('textbox', { name: 'Essay' })).toHaveProperty('value', '');
  });

  it('textarea: counts characters against the limit and reports blur', async () => {
    const { user, values, actions } = renderPage();
    const essay = screen.getByRole('textbox', { name: 'Essay' });
    expect(essay.getAttribute('rows')).toBe('6');
    expect(screen.getByText('Character count: 0 / 1500')).toBeTruthy();
    await user.type(essay, 'abc');
    expect(values.get('essay')).toBe('abc');
    const counter = screen.getByText('Character count: 3 / 1500');
    expect(essay.getAttribute('aria-describedby')).toContain(counter.id);
    expect(actions.onBlur).not.toHaveBeenCalled();
    await user.tab();
    expect(actions.onBlur).toHaveBeenCalledWith('essay');
  });

  it('textarea: counts what the applicant sees (an emoji is one character) and cuts a paste at the limit', () => {
    const { values } = renderPage();
    const essay = screen.getByRole('textbox', { name: 'Essay' });
    // A family emoji (11 code units), a flag (4) and e + a combining accent (2): three characters.
    fireEvent.change(essay, { target: { value: '👨‍👩‍👧‍👦🇫🇷é' } });
    expect(screen.getByText('Character count: 3 / 1500')).toBeTruthy();
    // 1500 emoji are 1500 characters (3000 code units): all kept, none cut by a code-unit maxlength.
    fireEvent.change(essay, { target: { value: '😀'.repeat(1500) } });
    expect(values.get('essay')).toBe('😀'.repeat(1500));
    expect(screen.getByText('Character count: 1500 / 1500')).toBeTruthy();
    fireEvent.change(essay, { target: { value: '😀'.repeat(1499) + 'ab' } });
    expect(values.get('essay')).toBe('😀'.repeat(1499) + 'a');
  });

  it('phone: formats typed digits and stores "(XXX) XXX-XXXX"', async () => {
    const { user, values } = renderPage();
    const input = screen.getByRole('textbox', { name: 'Home phone' });
    expect(input.getAttribute('type')).toBe('tel');
    expect(input.getAttribute('inputmode')).toBe('tel');
    await user.type(input, '2125550123');
    expect(values.get('phone_home')).toBe('(212) 555-0123');
    expect(input).toHaveProperty('value', '(212) 555-0123');
    await user.clear(input);
    expect(values.get('phone_home')).toBe('');
  });

  it('phone: shows what is stored while typing, and edits in the middle keep the caret', async () => {
    const { user, values } = renderPage();
    const input = screen.getByRole('textbox', { name: 'Home phone' }) as HTMLInputElement;
    await user.type(input, '21255');
    expect(input.value).toBe('(212) 55');
    expect(values.get('phone_home')).toBe('(212) 55');
    // A digit typed after "(2" goes there and the caret stays after it.
    input.setSelectionRange(2, 2);
    await user.type(input, '9', { initialSelectionStart: 2, initialSelectionEnd: 2 });
    expect(values.get('phone_home')).toBe('(291) 255');
    expect(input.selectionStart).toBe(3);
    // Backspace just after ") " deletes the digit before the separator.
    await user.type(input, '{Backspace}', { initialSelectionStart: 6, initialSelectionEnd: 6 });
    expect(values.get('phone_home')).toBe('(292) 55');
    expect(input.selectionStart).toBe(3);
  });

  it('phone: shows a stored number formatted', () => {
    renderPage({ answers: { phone_home: '(646) 555-0199' } });
    expect(screen.getByRole('textbox', { name: 'Home phone' })).toHaveProperty(
      'value',
      '(646) 555-0199',
    );
  });

  it('ssn: masked digits stored as ddd-dd-dddd, with a Show toggle', async () => {
    const { user, values } = renderPage();
    const input = screen.getByLabelText('Social Security number');
    expect(input.getAttribute('type')).toBe('password');
    expect(input.getAttribute('autocomplete')).toBe('off');
    await user.type(input, '123456789');
    expect(values.get('ssn')).toBe('123-45-6789');
    const toggle = screen.getByRole('button', { name: 'Show Social Security number' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(input.getAttribute('type')).toBe('text');
    expect(input).toHaveProperty('value', '123-45-6789');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(input.getAttribute('type')).toBe('password');
  });

  it('ssn: ignores letters', async () => {
    const { user, values } = renderPage();
    await user.type(screen.getByLabelText('Social Security number'), '12a3');
    expect(values.get('ssn')).toBe('123');
  });

  it('number: a text input with a numeric keyboard that stores the text', async () => {
    const { user, values } = renderPage();
    const input = screen.getByRole('textbox', { name: 'GPA' });
    expect(input.getAttribute('type')).toBe('text');
    expect(input.getAttribute('inputmode')).toBe('decimal');
    await user.type(input, '3.75');
    expect(values.get('hs_gpa')).toBe('3.75');
  });

  it('select: stores the value and its label under _desc; the blank entry stores ""', async () => {
    const { user, values } = renderPage();
    const select = screen.getByRole('combobox', { name: 'Favourite colour' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['--', 'Red', 'Green']);
    expect(within(select).getByRole('option', { name: 'Not selected' })).toBeTruthy();
    await user.selectOptions(select, 'Green');
    expect(values.get('colour')).toBe('G');
    expect(values.get('colour_desc')).toBe('Green');
    expect(select).toHaveProperty('value', 'G');
    await user.selectOptions(select, '--');
    expect(values.get('colour')).toBe('');
    expect(values.get('colour_desc')).toBe('');
  });

  it('select: a stored value missing from the list shows the blank entry', () => {
    renderPage({ answers: { colour: 'PURPLE' } });
    expect(screen.getByRole('combobox', { name: 'Favourite colour' })).toHaveProperty(
      'value',
      '--',
    );
  });

  it('radio: a named group without the blank entry; stores the value and _desc', async () => {
    const { user, values } = renderPage();
    const group = screen.getByRole('radiogroup', { name: 'Do you have pets?' });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((radio) => radio.getAttribute('value'))).toEqual(['Y', 'N']);
    expect(radios[0]?.id).toBe('has_pets');
    await user.click(within(group).getByRole('radio', { name: 'No' }));
    expect(values.get('has_pets')).toBe('N');
    expect(values.get('has_pets_desc')).toBe('No');
    expect(within(group).getByRole('radio', { name: 'No' })).toHaveProperty('checked', true);
  });

  it('checkbox: stores true and false; a stored "true" is checked', async () => {
    const { user, values } = renderPage();
    const box = screen.getByRole('checkbox', { name: 'I agree to the terms' });
    await user.click(box);
    expect(values.get('legal_agree')).toBe(true);
    expect(box).toHaveProperty('checked', true);
    await user.click(box);
    expect(values.get('legal_agree')).toBe(false);
    cleanup();
    renderPage({ answers: { legal_agree: 'true' } });
    expect(screen.getByRole('checkbox', { name: 'I agree to the terms' })).toHaveProperty(
      'checked',
      true,
    );
  });

  it('monthYear: a fieldset with a month and a year select under their own keys', async () => {
    const { user, values } = renderPage();
    const group = screen.getByRole('group', { name: 'Graduation date' });
    const month = within(group).getByRole('combobox', { name: 'Month' });
    const year = within(group).getByRole('combobox', { name: 'Year' });
    expect(month.id).toBe('grad_month');
    expect(
      within(year)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['--', '2024', '2025', '2026']);
    await user.selectOptions(month, 'March');
    expect(values.get('grad_month')).toBe('3');
    await user.selectOptions(year, '2025');
    expect(values.get('grad_year')).toBe('2025');
    expect(year).toHaveProperty('value', '2025');
    expect(month).toHaveProperty('value', '3');
    await user.selectOptions(year, '--');
    expect(values.get('grad_year')).toBe('');
  });

  it('lookup: a text input for the display label (at most 150 characters)', async () => {
    const { user, values } = renderPage();
    const input = screen.getByRole('textbox', { name: 'High school' });
    expect(input.getAttribute('maxlength')).toBe('150');
    await user.type(input, 'Central High');
    expect(values.get('hs_name')).toBe('Central High');
  });

  it('file: explains the wait to logged-out users, in the words its document source brings', async () => {
    const documents: DocumentSource = {
      stateOf: () => NO_DOCUMENT,
      subscribe: () => () => undefined,
      accept: '.pdf',
      text: documentText,
      choose: vi.fn(),
      requestDelete: vi.fn(),
    };
    renderPage({ anonymous: true, documents });
    const group = await screen.findByRole('group', { name: 'Transcript' });
    expect(
      within(group).getByText('This question can be finished once you have created an account.'),
    ).toBeTruthy();
    expect(within(group).queryByRole('button')).toBeNull();
  });

  it('file: without a document source (a read-only view) it only says whether a file is there', async () => {
    renderPage({ answers: { transcript: 'ANSWERED' } });
    expect(
      within(await screen.findByRole('group', { name: 'Transcript' })).getByText(
        'Document attached',
      ),
    ).toBeTruthy();
    cleanup();
    renderPage();
    const group = await screen.findByRole('group', { name: 'Transcript' });
    expect(group.id).toBe('transcript');
    expect(within(group).getByText('No file attached.')).toBeTruthy();
    expect(within(group).queryByRole('button')).toBeNull();
  });
});

describe('interactive renderers: errors', () => {
  it('lists the messages, linked by aria-describedby, and marks the control invalid', () => {
    renderPage({
      errors: {
        first_name: ['First name is required.', 'Use letters only.'],
        has_pets: ['Tell us about pets.'],
        grad_month: ['Graduation date needed.'],
      },
    });
    const input = screen.getByRole('textbox', { name: 'First name' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const describedBy = input.getAttribute('aria-describedby')?.split(' ') ?? [];
    expect(describedBy).toEqual(['first_name--errors', 'first_name--help']);
    const list = document.getElementById('first_name--errors');
    expect(list?.tagName).toBe('UL');
    const items = within(list as HTMLElement).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'First name is required.',
      'Use letters only.',
    ]);
    for (const item of items) {
      expect(item.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
    }
    const pets = screen.getByRole('radiogroup', { name: 'Do you have pets?' });
    expect(pets.getAttribute('aria-invalid')).toBe('true');
    expect(pets.getAttribute('aria-describedby')).toBe('has_pets--errors');
    const month = screen.getByRole('combobox', { name: 'Month' });
    const year = screen.getByRole('combobox', { name: 'Year' });
    expect(month.getAttribute('aria-describedby')).toBe('grad_month--errors');
    expect(year.getAttribute('aria-invalid')).toBe('true');
  });

  it('renders no list and no aria-invalid without messages, and follows the store', () => {
    const { errorStore } = renderPage();
    const input = screen.getByRole('textbox', { name: 'Essay' });
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(document.getElementById('essay--errors')).toBeNull();
    act(() => errorStore.set({ essay: ['Write something.'] }));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('essay--errors')?.textContent).toBe('Write something.');
    act(() => errorStore.set({}));
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(document.getElementById('essay--errors')).toBeNull();
  });
});

describe('interactive renderers: containers', () => {
  it('draws paragraphs and sections with their heading and description', () => {
    renderPage();
    expect(screen.getByText('Tell us about yourself.').tagName).toBe('P');
    const section = screen.getByRole('region', { name: 'Basics' });
    expect(within(section).getByRole('heading', { level: 2, name: 'Basics' })).toBeTruthy();
    expect(within(section).getByText('The essentials.')).toBeTruthy();
    expect(within(section).getByRole('textbox', { name: 'First name' })).toBeTruthy();
  });

  it('repeat: instances in titled fieldsets; Add Another calls onAddAnother', async () => {
    const { user, actions } = renderPage({ state: { addAnother: { award: 2 } } });
    const first = screen.getByRole('group', { name: 'Award 1' });
    const second = screen.getByRole('group', { name: 'Award 2' });
    expect(within(first).getByRole('textbox', { name: 'Award name' }).id).toBe('award');
    expect(within(second).getByRole('textbox', { name: 'Award name' }).id).toBe('award_2');
    await user.click(screen.getByRole('button', { name: 'Add Another' }));
    expect(actions.onAddAnother).toHaveBeenCalledWith('award');
  });

  it('repeat: no Add Another without onAddAnother (logged out) or at the maximum', () => {
    renderPage({ actions: {} });
    expect(screen.getByRole('group', { name: 'Award 1' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add Another' })).toBeNull();
    cleanup();
    renderPage({ state: { addAnother: { award: 3 } } });
    expect(screen.getByRole('group', { name: 'Award 3' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add Another' })).toBeNull();
  });

  it('tabs: the chosen tab and its content; a click calls onTabChange with the tab name', async () => {
    const { user, actions } = renderPage();
    const list = screen.getByRole('tablist', { name: 'Proof of residence' });
    const tabs = within(list).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Upload', 'Mail']);
    expect(within(list).getByRole('tab', { name: 'Upload' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByRole('textbox', { name: 'Upload note' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Tracking number' })).toBeNull();
    await user.click(within(list).getByRole('tab', { name: 'Mail' }));
    expect(actions.onTabChange).toHaveBeenCalledWith('proof', 'mail');
  });

  it('tabs: arrow keys move focus without switching (switching clears answers)', async () => {
    const { user, actions } = renderPage();
    await user.click(screen.getByRole('tab', { name: 'Upload' }));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement?.textContent).toBe('Mail');
    expect(actions.onTabChange).not.toHaveBeenCalled();
    await user.keyboard('{Enter}');
    expect(actions.onTabChange).toHaveBeenCalledWith('proof', 'mail');
  });

  it('tabs: without onTabChange only the chosen tab is listed', () => {
    renderPage({ actions: {}, state: { tabs: { proof: 'mail' } } });
    const list = screen.getByRole('tablist', { name: 'Proof of residence' });
    expect(
      within(list)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Mail']);
    expect(screen.getByRole('textbox', { name: 'Tracking number' })).toBeTruthy();
  });

  it('button trigger: a button that calls onReveal, then its content once revealed', async () => {
    const { user, actions } = renderPage();
    expect(screen.queryByRole('textbox', { name: 'Note' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add a note' }));
    expect(actions.onReveal).toHaveBeenCalledWith('extra');
    cleanup();
    renderPage({ state: { triggers: { extra: true } } });
    expect(screen.queryByRole('button', { name: 'Add a note' })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Note' })).toBeTruthy();
  });

  it('checkbox trigger: its check box, then the content it selects', async () => {
    const { user, values } = renderPage();
    const box = screen.getByRole('checkbox', { name: 'Same address' });
    expect(screen.getByRole('textbox', { name: 'Other address' })).toBeTruthy();
    await user.click(box);
    expect(values.get('same_address')).toBe(true);
    cleanup();
    renderPage({ answers: { same_address: true } });
    expect(screen.getByRole('checkbox', { name: 'Same address' })).toHaveProperty('checked', true);
    expect(screen.getByText('We will use your address.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Other address' })).toBeNull();
  });
});

describe('interactive renderers: a live page', () => {
  it('Add Another shows the next instance and moves focus into it', async () => {
    const { source } = memoryAnswers({});
    const user = userEvent.setup();
    render(<LivePage source={source} />);
    await user.click(screen.getByRole('button', { name: 'Add Another' }));
    const second = screen.getByRole('group', { name: 'Award 2' });
    expect(document.activeElement).toBe(
      within(second).getByRole('textbox', { name: 'Award name' }),
    );
    await user.click(screen.getByRole('button', { name: 'Add Another' }));
    expect(screen.getByRole('group', { name: 'Award 3' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add Another' })).toBeNull();
    expect(document.activeElement?.id).toBe('award_3');
  });

  it('revealing moves focus to the revealed field; tabs and check boxes switch content', async () => {
    const { source } = memoryAnswers({});
    const user = userEvent.setup();
    render(<LivePage source={source} />);
    await user.click(screen.getByRole('button', { name: 'Add a note' }));
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Note' }));
    await user.click(screen.getByRole('tab', { name: 'Mail' }));
    expect(screen.getByRole('textbox', { name: 'Tracking number' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Mail' }).getAttribute('aria-selected')).toBe('true');
    await user.click(screen.getByRole('checkbox', { name: 'Same address' }));
    expect(screen.getByText('We will use your address.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Other address' })).toBeNull();
  });

  it('typing into one field keeps the others and the page intact', async () => {
    const { source, values } = memoryAnswers({});
    const user = userEvent.setup();
    render(<LivePage source={source} />);
    await user.type(screen.getByRole('textbox', { name: 'First name' }), 'Grace');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Year' }), '2026');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Month' }), 'May');
    expect(values.get('first_name')).toBe('Grace');
    expect(screen.getByRole('combobox', { name: 'Year' })).toHaveProperty('value', '2026');
    expect(screen.getByRole('combobox', { name: 'Month' })).toHaveProperty('value', '5');
  });
});

describe('interactive renderers: accessibility and context', () => {
  it('has no axe violations on the whole page with errors shown', async () => {
    const { container } = renderPage({
      answers: { colour: 'R', has_pets: 'Y', transcript: 'ANSWERED' },
      state: { addAnother: { award: 2 }, triggers: { extra: true } },
      errors: {
        first_name: ['First name is required.'],
        essay: ['Write something.'],
        birth_date: ['Enter a valid date.'],
        phone_home: ['Enter a 10-digit phone number.'],
        ssn: ['Enter 9 digits.'],
        hs_gpa: ['Enter a GPA between 0 and 5.'],
        colour: ['Pick a colour.'],
        has_pets: ['Tell us about pets.'],
        legal_agree: ['You must agree.'],
        grad_month: ['Graduation date needed.'],
        hs_name: ['Choose your school.'],
        transcript: ['Upload your transcript.'],
        award_2: ['Name the award.'],
      },
    });
    const results = await axe.run(container, AXE_OPTIONS);
    expect(results.passes.length).toBeGreaterThan(10);
    expect(
      results.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.html) })),
    ).toEqual([]);
  });

  it('has no axe violations logged out (file note, no Add Another, fixed tabs)', async () => {
    const { container } = renderPage({ anonymous: true, actions: {} });
    const results = await axe.run(container, AXE_OPTIONS);
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });

  it('throws MissingFormProviderError outside the provider', () => {
    const page = visiblePage(definition, {}, 'all', { now: NOW });
    if (!page) throw new Error('page not found');
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(() => render(<PageOutlet page={page} />)).toThrow(MissingFormProviderError);
    } finally {
      quiet.mockRestore();
    }
  });
});
