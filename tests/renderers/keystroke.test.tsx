// @vitest-environment jsdom
/**
 * What one keystroke costs the runtime through the React layer (D85): visibility walks and
 * re-validated keys, counted by the runtime's instrumentation hook, and React renders, on the largest
 * page with the app's answer source, usePageView and the interactive renderers.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Profiler, useMemo } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { applicationDefinition } from '../../definitions';
import { interactiveRenderers } from '../../renderers/interactive';
import { ErrorStore, FormProvider, PageOutlet, usePageView } from '../../renderers/react';
import type { ViewState } from '../../runtime';
import { instrumentation } from '../../runtime/internal';
import {
  createAnswerStore,
  formAnswerSource,
  type FormAnswerSource,
} from '../../src/features/application/answerSource';

const state: ViewState = {};
let pageRenders = 0;
let source: FormAnswerSource | null = null;

function Page() {
  const store = useMemo(() => createAnswerStore({}), []);
  const errors = useMemo(() => new ErrorStore(), []);
  const answers = useMemo(() => {
    const made: FormAnswerSource = formAnswerSource(
      store,
      applicationDefinition,
      () => state,
      // As the app does while validating: the errors shown follow every change.
      () => errors.set(made.evaluation().errors as Record<string, string[]>),
    );
    return made;
  }, [store, errors]);
  source = answers;
  const page = usePageView(applicationDefinition, 'about', answers, state);
  const context = useMemo(
    () => ({ renderers: interactiveRenderers, answers, errors, anonymous: false, actions: {} }),
    [answers, errors],
  );
  return (
    <Profiler id="page" onRender={() => (pageRenders += 1)}>
      <FormProvider value={context}>{page ? <PageOutlet page={page} /> : null}</FormProvider>
    </Profiler>
  );
}

/** Walks, validated keys and page renders while `run` runs. */
function counting(run: () => void) {
  const counts = { walks: 0, validated: [] as string[], pageRenders: 0 };
  instrumentation.onWalk = () => (counts.walks += 1);
  instrumentation.onValidateKey = (key) => counts.validated.push(key);
  pageRenders = 0;
  try {
    act(run);
  } finally {
    delete instrumentation.onWalk;
    delete instrumentation.onValidateKey;
  }
  counts.pageRenders = pageRenders;
  return counts;
}

afterEach(() => {
  cleanup();
  delete instrumentation.onWalk;
  delete instrumentation.onValidateKey;
});

describe('one keystroke through the React layer', () => {
  it('typing into a name walks visibility at most once and re-validates that key only', () => {
    render(<Page />);
    const input = screen.getAllByLabelText(/^First Name/)[0] as HTMLInputElement;
    const counts = counting(() => fireEvent.change(input, { target: { value: 'M' } }));
    console.info(`keystroke in first_name: ${JSON.stringify(counts)}`);
    expect(input.value).toBe('M');
    expect(counts.walks).toBeLessThanOrEqual(1);
    expect(counts.validated).toEqual(['first_name']);
    expect(counts.pageRenders).toBeLessThanOrEqual(1); // the Profiler counts the field's own commit
    expect(source?.evaluation().errors.first_name).toBeUndefined();
  });

  it('a keystroke that other rules read walks once and re-validates its dependants only', () => {
    render(<Page />);
    const cell = screen.getByLabelText(/^Cell Phone/);
    const counts = counting(() => fireEvent.change(cell, { target: { value: '2125550123' } }));
    console.info(`keystroke in phone_mobile: ${JSON.stringify(counts)}`);
    expect(counts.walks).toBe(1);
    expect(counts.validated).toContain('phone_mobile');
    expect(counts.validated).toContain('phone_home');
    expect(counts.validated.length).toBeLessThanOrEqual(4);
    expect(source?.evaluation().errors.phone_home).toBeUndefined();
  });

  it('a choice that reveals content walks once and re-renders the page once', () => {
    render(<Page />);
    const no = document.querySelector(
      'input[name="mailing_addr_same_as_perm_addr"][value="N"]',
    ) as HTMLInputElement;
    const counts = counting(() => fireEvent.click(no));
    console.info(`click revealing the mailing address: ${JSON.stringify(counts)}`);
    expect(counts.walks).toBe(1);
    expect(counts.pageRenders).toBeLessThanOrEqual(1);
    expect(screen.getAllByLabelText(/^Address Effective Until/).length).toBeGreaterThan(0);
  });
});
