// @vitest-environment jsdom
/**
 * What a keystroke costs in React renders (at most 3 per keystroke in a text field, D24), on the
 * largest page, with the app's own pieces: the answer store behind formAnswerSource, usePageView and
 * the interactive renderer set, each renderer wrapped in a counter.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Profiler, useMemo, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { applicationDefinition } from '../../definitions';
import { interactiveRenderers } from '../../renderers/interactive';
import { ErrorStore, FormProvider, PageOutlet, usePageView } from '../../renderers/react';
import type { RendererSet } from '../../renderers/registry';
import type { ViewState } from '../../runtime';
import { createAnswerStore, formAnswerSource } from '../../src/features/application/answerSource';

const counts = new Map<string, number>();
let pageRenders = 0;

/** The interactive set with every renderer counting its renders per key (or container id). */
const countingRenderers = Object.fromEntries(
  Object.entries(interactiveRenderers).map(([kind, Renderer]) => [
    kind,
    (props: { view: { key?: string; id?: string } }) => {
      const name = `${kind}:${props.view.key ?? props.view.id ?? ''}`;
      counts.set(name, (counts.get(name) ?? 0) + 1);
      const Component = Renderer as (p: typeof props) => ReactNode;
      return <Component {...props} />;
    },
  ]),
) as unknown as RendererSet;

const state: ViewState = {};

function Page() {
  const store = useMemo(() => createAnswerStore({}), []);
  const answers = useMemo(
    () =>
      formAnswerSource(
        store,
        applicationDefinition,
        () => state,
        () => undefined,
      ),
    [store],
  );
  const errors = useMemo(() => new ErrorStore(), []);
  const page = usePageView(applicationDefinition, 'about', answers, state);
  const context = useMemo(
    () => ({ renderers: countingRenderers, answers, errors, anonymous: false, actions: {} }),
    [answers, errors],
  );
  return (
    <Profiler id="page" onRender={() => (pageRenders += 1)}>
      <FormProvider value={context}>{page ? <PageOutlet page={page} /> : null}</FormProvider>
    </Profiler>
  );
}

describe('renders per keystroke', () => {
  afterEach(() => cleanup());

  it('re-renders only the field typed into (at most 3 renders), not the page', () => {
    render(<Page />);
    const input = screen.getAllByLabelText(/^First Name/)[0] as HTMLInputElement;
    const questions = [...counts.keys()].filter((name) => !name.startsWith('section:')).length;
    counts.clear();
    pageRenders = 0;
    act(() => {
      fireEvent.change(input, { target: { value: 'M' } });
    });
    const rendered = [...counts.values()].reduce((sum, n) => sum + n, 0);
    console.info(
      `About You: ${questions} questions; one keystroke rendered ${rendered} renderer(s): ${[...counts.keys()].join(', ')}`,
    );
    expect(input.value).toBe('M');
    expect(counts.get('text:first_name')).toBe(1);
    expect(rendered).toBeLessThanOrEqual(3);
    expect(counts.has('section:personal')).toBe(false);
    expect(pageRenders).toBeLessThanOrEqual(1);
  });

  it('re-renders the page when visibility changes (a radio reveals content)', () => {
    render(<Page />);
    counts.clear();
    const no = document.querySelector(
      'input[name="mailing_addr_same_as_perm_addr"][value="N"]',
    ) as HTMLInputElement;
    act(() => {
      fireEvent.click(no);
    });
    expect(screen.getAllByLabelText(/^Address Effective Until/).length).toBeGreaterThan(0);
  });

  it('marks required questions with aria-required, following the answers', () => {
    render(<Page />);
    const first = screen.getAllByLabelText(/^First Name/)[0] as HTMLInputElement;
    const middle = screen.getAllByLabelText(/^Middle Name/)[0] as HTMLInputElement;
    const home = screen.getByLabelText(/^Home Phone/);
    expect(first.getAttribute('aria-required')).toBe('true');
    expect(middle.hasAttribute('aria-required')).toBe(false);
    expect(home.getAttribute('aria-required')).toBe('true');
    act(() => {
      fireEvent.change(screen.getByLabelText(/^Cell Phone/), { target: { value: '2125550123' } });
    });
    expect(screen.getByLabelText(/^Home Phone/).hasAttribute('aria-required')).toBe(false);
  });
});
