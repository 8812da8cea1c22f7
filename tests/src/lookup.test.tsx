// @vitest-environment jsdom
/**
 * The lookup combobox (SPEC 4.9) over an in-memory answer store and a stubbed lookup source (the
 * server is tested in tests/server/lookup.test.ts): suggestions with sub-text after the debounce,
 * choosing fills the related answers, "Use: …" clears them and shows the note (not for addresses),
 * clearing empties them, failures are silent.
 */
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOOKUP_DEBOUNCE } from '../../contract';
import { lookupText } from '../../contract/words';
import { interactiveRenderers } from '../../renderers/interactive';
import {
  ErrorStore,
  FormProvider,
  PageOutlet,
  usePageView,
  type AnswerSource,
  type LookupSource,
} from '../../renderers/react';
import type { AnswerValue } from '../../renderers/registry';
import { loadDefinition } from '../../runtime';

const definition = loadDefinition({
  id: 'lookup-test',
  title: 'Lookup test',
  version: 1,
  defaultRoute: '/p',
  optionLists: {
    countries: [
      { value: '--', label: '--' },
      { value: 'USA', label: 'United States' },
      { value: 'CAN', label: 'Canada' },
    ],
    states: [
      { value: '--', label: '--' },
      { value: 'Illinois', label: 'Illinois' },
      { value: 'Oregon', label: 'Oregon' },
    ],
  },
  pages: [
    {
      id: 'p',
      path: '/p',
      title: 'Lookups',
      children: [
        {
          kind: 'lookup',
          key: 'hs_name',
          label: 'Search for Your School',
          category: 'hs_ceeb',
          prefix: 'hs_',
          fills: ['ceeb', 'name', 'address_line_1', 'city', 'state', 'zip', 'country'],
        },
        { kind: 'text', key: 'hs_address_line_1', label: 'School Address' },
        { kind: 'text', key: 'hs_city', label: 'School City' },
        { kind: 'select', key: 'hs_state', label: 'School State', options: 'states' },
        { kind: 'text', key: 'hs_zip', label: 'School ZIP' },
        { kind: 'select', key: 'hs_country', label: 'School Country', options: 'countries' },
        { kind: 'select', key: 'country', label: 'Country', options: 'countries' },
        {
          kind: 'lookup',
          key: 'address_line_1',
          label: 'Address',
          category: 'address',
          autoComplete: 'address-line1',
          prefix: '',
          fills: ['address_line_1', 'address_line_2', 'city', 'state', 'zip', 'country'],
        },
        { kind: 'text', key: 'city', label: 'City' },
      ],
    },
  ],
});

const SCHOOLS = [
  { text: 'Lincoln High School', id: '990001', sub_text: 'Springfield, Illinois' },
  { text: 'Lincoln High School', id: '990002', sub_text: 'Portland, Oregon' },
];
const RECORD = {
  ceeb: '990002',
  name: 'Lincoln High School',
  address_line_1: '2 Rose Quarter Way',
  city: 'Portland',
  state: 'Oregon',
  state_desc: 'Oregon',
  zip: '97232',
  country: 'USA',
  country_desc: 'United States',
};

function memoryAnswers(initial: Readonly<Record<string, unknown>>) {
  const values = new Map<string, unknown>(Object.entries(initial));
  const listeners = new Set<() => void>();
  const source: AnswerSource = {
    getAnswer: (key) => values.get(key),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setAnswers: (next: Readonly<Record<string, AnswerValue>>) => {
      for (const [key, value] of Object.entries(next)) values.set(key, value);
      for (const listener of listeners) listener();
    },
  };
  return { source, values };
}

function Page({ answers, lookup }: { answers: AnswerSource; lookup: LookupSource }) {
  const page = usePageView(definition, 'p', answers, {}, new Date('2026-01-01T00:00:00Z'));
  if (!page) return null;
  return (
    <FormProvider
      value={{
        renderers: interactiveRenderers,
        answers,
        errors: new ErrorStore(),
        anonymous: false,
        actions: {},
        lookup,
      }}
    >
      <main>
        <h1>{page.title}</h1>
        <PageOutlet page={page} />
      </main>
    </FormProvider>
  );
}

function setup(
  initial: Record<string, unknown> = {},
  overrides: Partial<Pick<LookupSource, 'suggestions' | 'detail'>> = {},
) {
  const suggestions = vi.fn(
    overrides.suggestions ??
      (async (category: string, text: string) =>
        category === 'hs_ceeb' && 'lincoln'.startsWith(text.toLowerCase().slice(0, 7))
          ? SCHOOLS
          : category === 'address'
            ? [{ text: '123 Main Street', id: 's1', sub_text: 'Springfield, Illinois 62704' }]
            : []),
  );
  const detail = vi.fn(
    overrides.detail ??
      (async (category: string) =>
        category === 'address'
          ? {
              address_line_1: '123 Main Street',
              address_line_2: '',
              city: 'Springfield',
              state: 'Illinois',
              state_desc: 'Illinois',
              zip: '62704',
              country: 'USA',
              country_desc: 'United States',
            }
          : RECORD),
  );
  const lookup: LookupSource = {
    suggestions,
    detail,
    debounce: LOOKUP_DEBOUNCE,
    text: lookupText,
  };
  const { source, values } = memoryAnswers(initial);
  const user = userEvent.setup();
  const result = render(<Page answers={source} lookup={lookup} />);
  return { ...result, user, values, suggestions, detail };
}

// The combobox is a lazy chunk: its first import in a worker can take seconds on a loaded machine.
const school = () =>
  screen.findByRole('combobox', { name: 'Search for Your School' }, { timeout: 10_000 });

afterEach(cleanup);

describe('lookup combobox', () => {
  it('shows suggestions with label and sub-text after the debounce, then the Use: entry', async () => {
    const { user, suggestions } = setup();
    const input = await school();
    expect(input.getAttribute('aria-autocomplete')).toBe('list');
    await user.type(input, 'linc');
    const listbox = await screen.findByRole('listbox', { name: 'Search for Your School' });
    await waitFor(() =>
      expect(
        within(listbox)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual([
        'Lincoln High SchoolSpringfield, Illinois',
        'Lincoln High SchoolPortland, Oregon',
        'Use: linc',
      ]),
    );
    // Typing four letters quickly sends one search, for the whole text.
    expect(suggestions).toHaveBeenCalledTimes(1);
    expect(suggestions).toHaveBeenCalledWith('hs_ceeb', 'linc');
    expect(input.getAttribute('aria-expanded')).toBe('true');
  });

  it('keeps the definition’s autofill token on the applicant’s address, and "off" on a school (D198)', async () => {
    setup();
    expect((await school()).getAttribute('autocomplete')).toBe('off');
    const address = await screen.findByRole('combobox', { name: 'Address' });
    expect(address.getAttribute('autocomplete')).toBe('address-line1');
  });

  it('searches at the latest after the maximum wait while the applicant keeps typing', async () => {
    const { user, suggestions } = setup();
    const input = await school();
    // One letter every 150 ms: never a 200 ms pause, so only the 500 ms maximum wait fires.
    const started = Date.now();
    for (const letter of 'lincoln') {
      await user.type(input, letter);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const elapsed = Date.now() - started;
    const texts = suggestions.mock.calls.map((call) => call[1]);
    // Typing took longer than the maximum wait, and a search went out before the last letter.
    expect(elapsed).toBeGreaterThan(LOOKUP_DEBOUNCE.maxWait + 100);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts[0]).not.toBe('lincoln');
  });

  it('choosing a suggestion fetches its detail and fills the related answers with _desc labels', async () => {
    const { user, values, detail } = setup();
    await user.type(await school(), 'lincoln');
    const portland = await screen.findByRole('option', { name: /Portland, Oregon/ });
    await user.click(portland);
    await waitFor(() => expect(values.get('hs_city')).toBe('Portland'));
    expect(detail).toHaveBeenCalledWith('hs_ceeb', '990002');
    expect(Object.fromEntries([...values].filter(([key]) => key.startsWith('hs_')))).toEqual({
      hs_name: 'Lincoln High School',
      hs_ceeb: '990002',
      hs_address_line_1: '2 Rose Quarter Way',
      hs_city: 'Portland',
      hs_state: 'Oregon',
      hs_state_desc: 'Oregon',
      hs_zip: '97232',
      hs_country: 'USA',
      hs_country_desc: 'United States',
    });
    expect((screen.getByRole('textbox', { name: 'School City' }) as HTMLInputElement).value).toBe(
      'Portland',
    );
    expect(((await school()) as HTMLInputElement).value).toBe('Lincoln High School');
    expect(document.querySelectorAll('[role="option"]')).toHaveLength(0);
    expect(screen.queryByText(lookupText.newEntryNote)).toBeNull();
  });

  it('chooses with the keyboard too', async () => {
    const { user, values } = setup();
    await user.type(await school(), 'lincoln');
    await screen.findAllByRole('option', { name: /Portland/ });
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(
      screen
        .getByRole('combobox', { name: 'Search for Your School' })
        .getAttribute('aria-activedescendant'),
    ).toMatch(/item-1$/);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(values.get('hs_city')).toBe('Portland'));
  });

  it('"Use:" keeps the typed name, clears the related answers and shows the note', async () => {
    const { user, values } = setup({
      hs_name: 'Old School',
      hs_city: 'Salem',
      hs_state: 'Oregon',
      hs_state_desc: 'Oregon',
      hs_ceeb: '123456',
    });
    const input = await school();
    await user.clear(input);
    await user.type(input, 'Home Academy');
    await user.click(await screen.findByRole('option', { name: 'Use: Home Academy' }));
    expect(values.get('hs_name')).toBe('Home Academy');
    expect(values.get('hs_city')).toBe('');
    expect(values.get('hs_ceeb')).toBe('');
    expect(values.get('hs_state')).toBe('');
    expect(values.get('hs_state_desc')).toBe('');
    expect(screen.getByText(lookupText.newEntryNote).getAttribute('role')).toBe('status');
  });

  it('the address lookup has no note after "Use:" and keeps the chosen country', async () => {
    const { user, values } = setup({ country: 'CAN', country_desc: 'Canada', city: 'Toronto' });
    const input = await screen.findByRole('combobox', { name: 'Address' });
    await user.type(input, '9 Elm');
    await user.click(await screen.findByRole('option', { name: 'Use: 9 Elm' }));
    expect(values.get('address_line_1')).toBe('9 Elm');
    expect(values.get('city')).toBe('');
    expect(values.get('country')).toBe('CAN');
    expect(screen.queryByText(lookupText.newEntryNote)).toBeNull();
  });

  it('clearing the choice empties the related answers', async () => {
    const { user, values } = setup();
    await user.type(await school(), 'lincoln');
    await user.click(await screen.findByRole('option', { name: /Portland/ }));
    await waitFor(() => expect(values.get('hs_zip')).toBe('97232'));
    await user.click(screen.getAllByRole('button', { name: lookupText.clear })[0] as HTMLElement);
    for (const key of ['hs_name', 'hs_ceeb', 'hs_city', 'hs_state', 'hs_state_desc', 'hs_zip'])
      expect(values.get(key), key).toBe('');
    expect(((await school()) as HTMLInputElement).value).toBe('');
    // Deleting the text with the keyboard clears too.
    await user.type(await school(), 'lincoln');
    await user.click(await screen.findByRole('option', { name: /Springfield/ }));
    await waitFor(() => expect(values.get('hs_city')).toBe('Portland'));
    await user.clear(await school());
    expect(values.get('hs_city')).toBe('');
  });

  it('a failed search shows no suggestions but still offers the typed value', async () => {
    const { user, suggestions } = setup(
      {},
      { suggestions: async () => Promise.reject(new Error('down')) },
    );
    await user.type(await school(), 'lincoln');
    await waitFor(() => expect(suggestions).toHaveBeenCalled());
    const listbox = await screen.findByRole('listbox', { name: 'Search for Your School' });
    await waitFor(() =>
      expect(
        within(listbox)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Use: lincoln']),
    );
  });

  it('a failed detail call stores the label in the name and clears the related answers', async () => {
    const { user, values } = setup(
      { hs_city: 'Salem' },
      { detail: async () => Promise.reject(new Error('down')) },
    );
    await user.type(await school(), 'lincoln');
    await user.click(await screen.findByRole('option', { name: /Portland/ }));
    await waitFor(() => expect(values.get('hs_city')).toBe(''));
    expect(values.get('hs_name')).toBe('Lincoln High School');
  });

  it('a failed address detail stores the label in address_line_1', async () => {
    const { user, values } = setup({}, { detail: async () => Promise.reject(new Error('down')) });
    await user.type(await screen.findByRole('combobox', { name: 'Address' }), '123 ma');
    await user.click(await screen.findByRole('option', { name: /123 Main Street/ }));
    await waitFor(() => expect(values.get('address_line_1')).toBe('123 Main Street'));
    expect(values.get('city')).toBe('');
  });

  it('has no axe violations with the list open', async () => {
    const { user, container } = setup();
    await user.type(await school(), 'lincoln');
    await screen.findAllByRole('option');
    const results = await axe.run(container, {
      rules: { region: { enabled: false }, 'color-contrast': { enabled: false } },
    });
    expect(
      results.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.html) })),
    ).toEqual([]);
  });
});
