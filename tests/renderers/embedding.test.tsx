// @vitest-environment jsdom
/**
 * The integrator's example of docs/embedding.md, run as a test: a definition loaded from JSON, the
 * view computed by the runtime, hidden answers cleared, validation on submit, and drawn with the plain
 * renderer set of tests/renderers/plain. docs/embedding.md quotes the `#region docs:` blocks of
 * this file and of the plain set; the last test checks that every quote still matches.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
// #region docs:imports
import { useMemo, useState } from 'react';
import {
  applyClearing,
  loadDefinition,
  validateAnswers,
  type ViewState,
} from '@admission-platform/form-runtime';
import {
  ErrorStore,
  FormProvider,
  PageOutlet,
  usePageView,
  type AnswerSource,
} from '@admission-platform/form-renderers/react';
import type { AnswerValue } from '@admission-platform/form-renderers/registry';
import { plainRenderers } from './plain/plainRenderers';
// #endregion

// #region docs:definition
/** The definition is data (it could come from a JSON file or a database): check it once on load. */
const definition = loadDefinition({
  id: 'pets',
  title: 'Pet registration',
  version: 1,
  defaultRoute: '/owner',
  optionLists: {
    yesNo: [
      { value: '--', label: '--' },
      { value: 'Y', label: 'Yes' },
      { value: 'N', label: 'No' },
    ],
  },
  pages: [
    {
      id: 'owner',
      path: '/owner',
      title: 'Owner',
      children: [
        {
          kind: 'text',
          key: 'first_name',
          label: 'First name',
          rules: [{ kind: 'required', message: 'Please tell us your first name.' }],
        },
        { kind: 'radio', key: 'has_pets', label: 'Do you have pets?', options: 'yesNo' },
        {
          kind: 'section',
          id: 'pets',
          title: 'Your pet',
          hideWhen: { valueKey: 'has_pets', operator: 'notEquals', target: 'Y' },
          clears: ['pet_name'],
          children: [{ kind: 'text', key: 'pet_name', label: 'Pet name' }],
        },
      ],
    },
  ],
});
// #endregion

// #region docs:store
/**
 * Any store works behind `AnswerSource`: a getter, a change subscription and a setter. Every change
 * passes through `applyClearing`, so answers under content that just hid are cleared at once.
 */
function createAnswerStore(state: ViewState = {}) {
  let answers: Record<string, unknown> = {};
  const listeners = new Set<() => void>();
  const source: AnswerSource = {
    getAnswer: (key) => answers[key],
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setAnswers: (next: Readonly<Record<string, AnswerValue>>) => {
      answers = applyClearing(definition, answers, { ...answers, ...next }, state).answers;
      for (const listener of listeners) listener();
    },
  };
  return { source, all: () => answers };
}
// #endregion

// #region docs:app
/** One page of the form, drawn with the integrator's own renderer set, validated on submit. */
function PetForm({ onSubmit }: { onSubmit: (answers: Record<string, unknown>) => void }) {
  const [store] = useState(() => createAnswerStore());
  const [errors] = useState(() => new ErrorStore());
  const [state] = useState<ViewState>({});
  const page = usePageView(definition, 'owner', store.source, state);
  const context = useMemo(
    () => ({
      renderers: plainRenderers,
      answers: store.source,
      errors,
      anonymous: false,
      actions: {},
    }),
    [store, errors],
  );
  if (!page) return null;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const result = validateAnswers(definition, store.all(), state);
        errors.set(result.errors);
        if (Object.keys(result.errors).length === 0) onSubmit(store.all());
      }}
    >
      <h1>{page.title}</h1>
      <FormProvider value={context}>
        <PageOutlet page={page} />
      </FormProvider>
      <button type="submit">Send</button>
    </form>
  );
}
// #endregion

afterEach(cleanup);

describe('embedding the runtime with a renderer set of your own', () => {
  it('computes the view, clears hidden answers, validates and submits', async () => {
    const user = userEvent.setup();
    const submitted: Record<string, unknown>[] = [];
    render(<PetForm onSubmit={(answers) => submitted.push(answers)} />);

    expect(screen.queryByLabelText('Pet name')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByText('Please tell us your first name.')).toBeTruthy();
    expect(screen.getByLabelText('First name').getAttribute('aria-invalid')).toBe('true');
    expect(submitted).toEqual([]);

    await user.type(screen.getByLabelText('First name'), 'Ada');
    await user.click(screen.getByLabelText('Yes'));
    await user.type(screen.getByLabelText('Pet name'), 'Babbage');
    await user.click(screen.getByLabelText('No'));
    expect(screen.queryByLabelText('Pet name')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.queryByText('Please tell us your first name.')).toBeNull();
    expect(submitted).toEqual([
      { first_name: 'Ada', has_pets: 'N', has_pets_desc: 'No', pet_name: '' },
    ]);
  });

  it('docs/embedding.md quotes this code exactly (so the guide cannot go stale)', () => {
    const guide = readFileSync(path.resolve('docs/embedding.md'), 'utf8');
    const quotes = [...guide.matchAll(/<!-- snippet: (\S+)#(\S+) -->\n\n?```tsx?\n([\s\S]*?)```/g)];
    expect(quotes.length).toBeGreaterThanOrEqual(6);
    for (const [, file, region, quoted] of quotes) {
      const source = readFileSync(path.resolve(file as string), 'utf8');
      const match = new RegExp(`// #region docs:${region}\\n([\\s\\S]*?)// #endregion`).exec(
        source,
      );
      expect(match, `${file}#${region} exists`).not.toBeNull();
      expect(quoted, `${file}#${region} is quoted as it is`).toBe(match?.[1]);
    }
  });
});
