// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDefinition, storedAnswer, validateAnswers, visiblePage } from '../../runtime';
import { interactiveRenderers } from '../../renderers/interactive';
import { DATE_HINT } from '../../renderers/interactive/DateQuestion';
import { ErrorStore, FormProvider, PageOutlet, type AnswerSource } from '../../renderers/react';
import type { AnswerValue } from '../../renderers/registry';

const messages = {
  required: 'Date of Birth',
  invalid: 'A valid date of birth is required.',
  tooOld: 'This date is not supported.',
  tooYoung: 'You must be 13 years or older to apply.',
};

const definition = loadDefinition({
  id: 'dates',
  title: 'Date form',
  version: 1,
  defaultRoute: '/about',
  optionLists: {},
  pages: [
    {
      id: 'about',
      path: '/about',
      title: 'About',
      children: [
        {
          kind: 'date',
          key: 'birth_date',
          label: 'Date of Birth',
          autoComplete: 'bday',
          rules: [
            { kind: 'required', message: messages.required },
            { kind: 'date', message: messages.invalid },
            {
              kind: 'dateWindow',
              min: { yearOffset: -100, month: 1, day: 1 },
              max: { yearOffset: -13, month: 12, day: 31 },
              minMessage: messages.tooOld,
              maxMessage: messages.tooYoung,
            },
          ],
        },
        { kind: 'date', key: 'moved_on', label: 'Moved on' },
      ],
    },
  ],
});

const NOW = new Date('2025-06-01T12:00:00Z');

/** Answers in memory; every change validates the page, as the app does while validating. */
function validatingForm(initial: Record<string, AnswerValue>) {
  const values = new Map<string, AnswerValue>(Object.entries(initial));
  const errors = new ErrorStore();
  const listeners = new Set<() => void>();
  const revalidate = () =>
    errors.set(validateAnswers(definition, Object.fromEntries(values), { now: NOW }).errors);
  const source: AnswerSource = {
    getAnswer: (key) => values.get(key),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setAnswers: (next) => {
      for (const [key, value] of Object.entries(next)) values.set(key, value);
      revalidate();
      for (const listener of listeners) listener();
    },
  };
  revalidate();
  return { source, values, errors };
}

function renderForm(initial: Record<string, AnswerValue> = {}) {
  const form = validatingForm(initial);
  const page = visiblePage(definition, initial, 'about', { now: NOW });
  if (!page) throw new Error('page not found');
  const draw = () => (
    <FormProvider
      value={{
        renderers: interactiveRenderers,
        answers: form.source,
        errors: form.errors,
        anonymous: false,
        actions: { onAddAnother: () => undefined, onTabChange: () => undefined },
      }}
    >
      <main>
        <h1>{page.title}</h1>
        <PageOutlet page={page} />
      </main>
    </FormProvider>
  );
  const result = render(draw());
  const input = () => screen.getByRole('textbox', { name: /Date of Birth/ }) as HTMLInputElement;
  const messagesOf = (field: HTMLElement) =>
    (field.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id))
      .filter((node): node is HTMLElement => node?.tagName === 'UL')
      .flatMap((list) => [...list.querySelectorAll('li')].map((item) => item.textContent));
  return { ...result, ...form, user: userEvent.setup(), input, messagesOf, draw };
}

const AXE_OPTIONS: axe.RunOptions = {
  rules: { region: { enabled: false }, 'color-contrast': { enabled: false } },
};

async function expectNoAxeViolations() {
  const results = await axe.run(document.body, AXE_OPTIONS);
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
}

afterEach(cleanup);

describe('the date question: MM/DD/YYYY typed into a masked text field (D121)', () => {
  it('is a labelled numeric text field with its format hint and the date-of-birth autofill', async () => {
    const { input } = renderForm();
    const field = input();
    expect(field.type).toBe('text');
    expect(field.inputMode).toBe('numeric');
    expect(field.getAttribute('autocomplete')).toBe('bday');
    expect(field.getAttribute('aria-required')).toBe('true');
    const [hint] = screen.getAllByText(DATE_HINT);
    expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(hint?.id);
    expect(hint?.id).toBe('birth_date--hint');
    expect(screen.getByRole('textbox', { name: 'Moved on' }).getAttribute('autocomplete')).toBe(
      'off',
    );
    await expectNoAxeViolations();
  });

  it('typing 02302008 shows 02/30/2008 and the question\'s "valid date" message; nothing is saved', async () => {
    const { input, user, values, messagesOf } = renderForm();
    await user.type(input(), '02302008');
    expect(input().value).toBe('02/30/2008');
    expect(values.get('birth_date')).toBe('02/30/2008');
    expect(messagesOf(input())).toEqual([messages.invalid]);
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect(storedAnswer(values.get('birth_date'), 'date')).toBe('');
    await expectNoAxeViolations();
  });

  it('typing 03152008 gives the answer 2008-03-15, with no message', async () => {
    const { input, user, values, messagesOf } = renderForm();
    await user.type(input(), '03152008');
    expect(input().value).toBe('03/15/2008');
    expect(values.get('birth_date')).toBe('2008-03-15');
    expect(messagesOf(input())).toEqual([]);
    expect(input().getAttribute('aria-invalid')).toBeNull();
  });

  it('a half-typed date is the "valid date" message too, and shows again when the field is drawn again', async () => {
    const { input, user, values, messagesOf, unmount } = renderForm();
    await user.type(input(), 'ab031');
    expect(input().value).toBe('03/1');
    expect(messagesOf(input())).toEqual([messages.invalid]);
    unmount();
    // Another page and back: the field is new, the answer (what was typed) is the same.
    const again = renderForm(Object.fromEntries(values));
    expect(again.input().value).toBe('03/1');
    expect(again.messagesOf(again.input())).toEqual([messages.invalid]);
  });

  it('keeps slashes typed after a one-digit month or day as the applicant meant them', async () => {
    const { input, user, values } = renderForm();
    await user.type(input(), '3/5/2008');
    expect(input().value).toBe('03/05/2008');
    expect(values.get('birth_date')).toBe('2008-03-05');
  });

  it('reads a paste of 3/15/2008 and of an ISO date', async () => {
    const { input, user, values } = renderForm();
    await user.click(input());
    await user.paste('3/15/2008');
    expect(input().value).toBe('03/15/2008');
    expect(values.get('birth_date')).toBe('2008-03-15');
    await user.clear(input());
    expect(values.get('birth_date')).toBe('');
    await user.paste('2007-12-10');
    expect(input().value).toBe('12/10/2007');
    expect(values.get('birth_date')).toBe('2007-12-10');
  });

  it('backspace over a slash deletes the digit before it', async () => {
    const { input, user, values } = renderForm();
    await user.type(input(), '0315');
    expect(input().value).toBe('03/15');
    // The caret after "03/": backspace removes the 3, and the 1 moves up.
    await user.type(input(), '{Backspace}', { initialSelectionStart: 3, initialSelectionEnd: 3 });
    expect(input().value).toBe('01/5');
    expect(values.get('birth_date')).toBe('01/5');
    await user.clear(input());
    expect(values.get('birth_date')).toBe('');
    expect(input().value).toBe('');
  });

  it("shows a saved ISO answer as MM/DD/YYYY, and the window's own messages still apply", async () => {
    const { input, user, values, messagesOf } = renderForm({ birth_date: '2007-12-10' });
    expect(input().value).toBe('12/10/2007');
    await user.clear(input());
    await user.type(input(), '01011900');
    expect(values.get('birth_date')).toBe('1900-01-01');
    expect(messagesOf(input())).toEqual([messages.tooOld]);
    await user.clear(input());
    await user.type(input(), '06012020');
    expect(messagesOf(input())).toEqual([messages.tooYoung]);
    await user.clear(input());
    expect(messagesOf(input())).toEqual([messages.required]);
    await expectNoAxeViolations();
  });

  it('takes digits only, at most eight', async () => {
    const { input, user, values } = renderForm();
    await user.type(input(), '12-31-2007 99');
    expect(input().value).toBe('12/31/2007');
    expect(values.get('birth_date')).toBe('2007-12-31');
  });
});
