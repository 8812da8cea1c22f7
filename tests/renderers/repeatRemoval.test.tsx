// @vitest-environment jsdom
/** Removing an added instance of a repeat in the interactive set (D148), on the real runtime. */
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { useMemo, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  canRemoveInstance,
  instanceAnswered,
  loadDefinition,
  removeInstance,
  type ViewState,
} from '../../runtime';
import { interactiveRenderers } from '../../renderers/interactive';
import { repeatText } from '../../contract/words';
import {
  ErrorStore,
  FormProvider,
  PageOutlet,
  usePageView,
  type AnswerSource,
  type FormActions,
} from '../../renderers/react';

const definition = loadDefinition({
  id: 'repeat-removal',
  title: 'Repeat removal',
  version: 1,
  defaultRoute: '/people',
  optionLists: {},
  pages: [
    {
      id: 'people',
      path: '/people',
      title: 'People',
      children: [
        {
          kind: 'repeat',
          id: 'people',
          title: 'Person {n}',
          instances: { kind: 'prefix', prefixes: ['person_', 'person_2_', 'person_3_'] },
          addAnother: { buttonId: 'person', label: 'Add Another Person' },
          children: [{ kind: 'text', key: 'name', label: 'Name' }],
        },
      ],
    },
  ],
});
const NOW = new Date('2025-06-01T12:00:00Z');

/** The app's page in miniature: answers and counts in React state, removal by the runtime. */
function LivePage({ initial, count }: { initial: Record<string, unknown>; count: number }) {
  const [answers, setAnswers] = useState(initial);
  const [state, setState] = useState<ViewState>({ addAnother: { person: count } });
  const source = useMemo<AnswerSource>(
    () => ({
      getAnswer: (key) => answers[key],
      subscribe: () => () => undefined,
      setAnswers: (patch) => setAnswers((old) => ({ ...old, ...patch })),
    }),
    [answers],
  );
  const actions = useMemo<FormActions>(
    () => ({
      onAddAnother: (id) =>
        setState((s) => ({ addAnother: { [id]: (s.addAnother?.[id] ?? 1) + 1 } })),
      repeats: {
        text: repeatText,
        canRemove: (id, n) => canRemoveInstance(definition, id, n),
        answered: (id, n) => instanceAnswered(definition, id, n, answers),
        remove: (id, n) => {
          const removal = removeInstance(definition, id, n, answers, state.addAnother ?? {});
          setState({ addAnother: { [removal.buttonId]: removal.count } });
          setAnswers((old) => ({ ...old, ...removal.answers }));
        },
      },
    }),
    [answers, state],
  );
  const page = usePageView(definition, 'people', source, state, NOW);
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

const AXE_OPTIONS: axe.RunOptions = {
  rules: { region: { enabled: false }, 'color-contrast': { enabled: false } },
};
const names = () =>
  screen
    .getAllByRole('textbox', { name: 'Name' })
    .map((input) => (input as HTMLInputElement).value);

afterEach(cleanup);

describe('removing an added instance (D148)', () => {
  it('an empty one goes at once; focus moves to Add Another and the removal is announced', async () => {
    const user = userEvent.setup();
    render(<LivePage initial={{ person_name: 'Ada' }} count={2} />);
    expect(screen.queryByRole('button', { name: 'Remove Person 1' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Remove Person 2' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.queryByRole('group', { name: 'Person 2' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add Another Person' }));
    expect(screen.getByRole('status').textContent).toBe('Person 2 removed.');
  });

  it('one holding answers asks first; Cancel keeps it, Remove moves the later one down', async () => {
    const user = userEvent.setup();
    const initial = { person_name: 'Ada', person_2_name: 'Bea', person_3_name: 'Cy' };
    render(<LivePage initial={initial} count={3} />);
    const remove = screen.getByRole('button', { name: 'Remove Person 2' });
    await user.click(remove);
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove Person 2?' });
    expect(dialog.textContent).toContain(repeatText.confirmText);
    expect((await axe.run(document.body, AXE_OPTIONS)).violations.map((v) => v.id)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(names()).toEqual(['Ada', 'Bea', 'Cy']);
    await expect.poll(() => document.activeElement).toBe(remove);

    await user.keyboard('{Enter}');
    const again = await screen.findByRole('alertdialog', { name: 'Remove Person 2?' });
    await user.click(within(again).getByRole('button', { name: 'Remove' }));
    expect(names()).toEqual(['Ada', 'Cy']);
    expect(screen.queryByRole('group', { name: 'Person 3' })).toBeNull();
    const second = screen.getByRole('group', { name: 'Person 2' });
    await expect.poll(() => document.activeElement).toBe(second);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the dialog's own focus return
    expect(document.activeElement).toBe(second);
    expect(screen.getByRole('status').textContent).toBe('Person 2 removed.');
  });

  it('at the maximum says so instead of hiding Add Another, and no axe violations', async () => {
    const { container } = render(<LivePage initial={{}} count={3} />);
    expect(screen.queryByRole('button', { name: 'Add Another Person' })).toBeNull();
    expect(screen.getByText(repeatText.atMaximum(3))).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Remove Person/ })).toHaveLength(2);
    expect((await axe.run(container, AXE_OPTIONS)).violations.map((v) => v.id)).toEqual([]);
  });
});
