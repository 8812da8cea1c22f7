// @vitest-environment jsdom
/**
 * Autofill on the page (WCAG 1.3.5, D198): each college's first page, drawn by the interactive
 * renderers from its definition file, puts the definition's token on every control of the
 * applicant's own data (text, phone, select, the address lookup), and none on a parent's.
 */
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadDefinition, visiblePage } from '../../runtime';
import { interactiveRenderers } from '../../renderers/interactive';
import { ErrorStore, FormProvider, PageOutlet, type AnswerSource } from '../../renderers/react';
import northfield from '../../tenants/northfield/definition.json';
import riverside from '../../tenants/riverside/definition.json';

const DEFINITIONS: Record<string, unknown> = { northfield, riverside };

const NOW = new Date('2026-06-01T12:00:00Z');

/** Answers that open what the first page hides: the mailing address and a parent's own address. */
const ANSWERS = { mailing_addr_same_as_perm_addr: 'N', country: 'USA', mailing_country: 'USA' };

function renderFirstPage(college: string) {
  const { $schema: _schema, ...file } = DEFINITIONS[college] as Record<string, unknown>;
  const definition = loadDefinition(file);
  const first = definition.pages[0]!;
  const page = visiblePage(definition, ANSWERS, first.id, {
    now: NOW,
    triggers: { international_phone: true },
  });
  if (!page) throw new Error(`${college}: no first page`);
  const values = new Map<string, unknown>(Object.entries(ANSWERS));
  const source: AnswerSource = {
    getAnswer: (key) => values.get(key),
    subscribe: () => () => undefined,
    setAnswers: vi.fn(),
  };
  render(
    <FormProvider
      value={{
        renderers: interactiveRenderers,
        answers: source,
        errors: new ErrorStore(),
        anonymous: false,
        actions: { onAddAnother: vi.fn(), onTabChange: vi.fn(), onReveal: vi.fn() },
      }}
    >
      <main>
        <PageOutlet page={page} />
      </main>
    </FormProvider>,
  );
}

/** The autofill token of every named control on the page, by its answer key. */
function tokens(): Record<string, string | null> {
  const controls = document.querySelectorAll<HTMLElement>('input[name], select[name]');
  return Object.fromEntries(
    [...controls].map((control) => [
      control.getAttribute('name')!,
      control.getAttribute('autocomplete'),
    ]),
  );
}

afterEach(cleanup);

describe('autofill tokens on the page (WCAG 1.3.5)', () => {
  it('northfield: the applicant’s name, e-mail, phones and both addresses carry theirs', () => {
    renderFirstPage('northfield');
    expect(tokens()).toMatchObject({
      first_name: 'given-name',
      last_name: 'family-name',
      preferred_name: 'nickname',
      email_address: 'email',
      birth_date: 'bday',
      gender: 'sex',
      phone_home: 'home tel-national',
      phone_mobile: 'mobile tel-national',
      phone_international: 'tel',
      country: 'country-name',
      address_line_1: 'address-line1',
      address_line_2: 'address-line2',
      city: 'address-level2',
      state: 'address-level1',
      zip: 'postal-code',
      mailing_address_line_1: 'section-mailing address-line1',
      mailing_city: 'section-mailing address-level2',
      mailing_state: 'section-mailing address-level1',
      mailing_zip: 'section-mailing postal-code',
    });
  });

  it('northfield: a parent’s fields carry no personal token', () => {
    renderFirstPage('northfield');
    const parents = Object.entries(tokens()).filter(([key]) => key.startsWith('parent_'));
    expect(parents.map(([key]) => key)).toEqual(
      expect.arrayContaining(['parent_first_name', 'parent_phone', 'parent_city', 'parent_zip']),
    );
    expect(parents.filter(([, token]) => token !== null && token !== 'off')).toEqual([]);
  });

  it('riverside: the applicant’s name, e-mail and phone carry theirs', () => {
    renderFirstPage('riverside');
    expect(tokens()).toMatchObject({
      first_name: 'given-name',
      last_name: 'family-name',
      preferred_name: 'nickname',
      email_address: 'email',
      phone_mobile: 'mobile tel-national',
    });
  });
});
