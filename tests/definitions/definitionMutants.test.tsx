// @vitest-environment jsdom
/**
 * Mutants of both colleges' definitions (D194): drop, duplicate, rename, retarget, empty, reorder,
 * at random. Every mutant is either refused with a path for each problem, or accepted, and then it
 * renders in both renderer sets, validates and prints without an exception, and no two questions
 * shown at once share an answer.
 */
import { cleanup, render } from '@testing-library/react';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BLANK,
  questionsOf,
  validateAnswers,
  visiblePage,
  visibleView,
  type Answers,
  type Definition,
} from '../../runtime';
import { compile } from '../../runtime/internal';
import { interactiveRenderers } from '../../renderers/interactive';
import { printRenderers, PrintProvider } from '../../renderers/print';
import { renderApplicationHtml } from '../../renderers/print/render';
import { FormProvider, PageOutlet, staticAnswers, staticErrors } from '../../renderers/react';
import type { RendererSet } from '../../renderers/registry';
import { definitionFileProblems } from '../../server/platform/definitionChecks';
import { readTenantFile } from '../fixtures/brokenTenantFiles';

const NOW = new Date('2026-11-22T10:00:00Z');
/**
 * Runs per college: a few seconds each (Northfield's three long pages render slower); set
 * MUTANT_RUNS for a longer search.
 */
const RUNS: Record<string, number> = {
  riverside: Number(process.env.MUTANT_RUNS ?? 40),
  northfield: Number(process.env.MUTANT_RUNS ?? 10),
};

type Json = Record<string, any>;

/** Where a mutation can strike in a definition's JSON: its arrays, its names and its strings. */
interface Sites {
  readonly arrays: any[][];
  readonly names: { holder: Json; prop: string }[];
  readonly comparisons: Json[];
  readonly strings: { holder: Json; prop: string | number }[];
  readonly pool: string[];
  readonly codes: string[];
}

const NAME_PROPS = new Set(['key', 'id', 'valueKey', 'yearKey', 'name', 'defaultTab', 'buttonId']);

function sitesOf(definition: Json): Sites {
  const sites: Sites = { arrays: [], names: [], comparisons: [], strings: [], pool: [], codes: [] };
  const visit = (value: unknown, prop: string | number | null, holder: Json | null) => {
    if (Array.isArray(value)) {
      if (value.length > 0) sites.arrays.push(value);
      value.forEach((entry, index) => visit(entry, index, value as unknown as Json));
      return;
    }
    if (typeof value === 'string') {
      if (holder && prop !== null && prop !== 'kind' && prop !== 'operator')
        sites.strings.push({ holder, prop });
      if (holder && typeof prop === 'string' && NAME_PROPS.has(prop)) {
        sites.names.push({ holder, prop });
        sites.pool.push(value);
      }
      if (prop === 'value' || prop === 'label') sites.codes.push(value);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    if ('valueKey' in value) sites.comparisons.push(value as Json);
    for (const [name, entry] of Object.entries(value)) visit(entry, name, value as Json);
  };
  visit(definition, null, null);
  return sites;
}

const MUTATIONS = ['drop', 'duplicate', 'rename', 'retarget', 'empty', 'reorder'] as const;
type Mutation = { kind: (typeof MUTATIONS)[number]; a: number; b: number; c: number };

const pick = <T,>(list: readonly T[], index: number): T | undefined =>
  list.length === 0 ? undefined : list[index % list.length];

function mutate(definition: Json, { kind, a, b, c }: Mutation): void {
  const sites = sitesOf(definition);
  const list = pick(sites.arrays, a);
  switch (kind) {
    case 'drop':
      if (list) list.splice(b % list.length, 1);
      return;
    case 'duplicate':
      if (list) list.splice(c % (list.length + 1), 0, structuredClone(list[b % list.length]));
      return;
    case 'reorder':
      if (list && list.length > 1) {
        const i = b % list.length;
        const j = c % list.length;
        [list[i], list[j]] = [list[j], list[i]];
      }
      return;
    case 'rename': {
      const site = pick(sites.names, a);
      if (site) site.holder[site.prop] = c % 3 === 0 ? `renamed_${b % 7}` : pick(sites.pool, b);
      return;
    }
    case 'retarget': {
      const comparison = pick(sites.comparisons, a);
      if (!comparison) return;
      if (c % 4 === 0) comparison.valueKey = pick(sites.pool, b);
      else if (c % 4 === 1) comparison.target = [pick(sites.codes, b), pick(sites.codes, c)];
      else comparison.target = pick(sites.codes, b);
      return;
    }
    case 'empty': {
      const site = pick(sites.strings, a);
      if (site) site.holder[site.prop] = '';
      return;
    }
  }
}

/** An answer for every question of a definition, as an applicant would give it. */
function sampleAnswers(definition: Definition): Answers {
  const answers: Record<string, unknown> = {};
  for (const instance of compile(definition).instances) {
    const question = instance.question;
    const choose = (options: readonly { value: string; label: string }[]) =>
      options.find((option) => option.value !== BLANK);
    switch (question.kind) {
      case 'checkbox':
        answers[instance.key] = true;
        break;
      case 'date':
        answers[instance.key] = '2007-12-10';
        break;
      case 'file':
        answers[instance.key] = 'ANSWERED';
        break;
      case 'select':
      case 'radio': {
        const option = choose(instance.options?.(answers, NOW) ?? []);
        answers[instance.key] = option?.value ?? BLANK;
        if (instance.descKey) answers[instance.descKey] = option?.label ?? '';
        break;
      }
      case 'monthYear':
        answers[instance.key] = choose(instance.monthOptions ?? [])?.value ?? '';
        if (instance.yearKey)
          answers[instance.yearKey] = choose(instance.options?.(answers, NOW) ?? [])?.value ?? '';
        break;
      default:
        answers[instance.key] = question.kind === 'number' ? '3' : 'Ada';
    }
  }
  return answers;
}

const sets: { name: string; renderers: RendererSet; print?: boolean }[] = [
  { name: 'interactive', renderers: interactiveRenderers },
  { name: 'print', renderers: printRenderers, print: true },
];

function renderPages(definition: Definition, answers: Answers): void {
  for (const set of sets)
    for (const page of definition.pages) {
      const view = visiblePage(definition, answers, page.id, { now: NOW });
      if (!view) throw new Error(`no view of page ${page.id}`);
      const tree = (
        <FormProvider
          value={{
            renderers: set.renderers,
            answers: staticAnswers(answers),
            errors: staticErrors(validateAnswers(definition, answers, { now: NOW }).errors),
            anonymous: false,
            actions: {},
          }}
        >
          <PageOutlet page={view} />
        </FormProvider>
      );
      render(
        set.print ? <PrintProvider value={{ documents: new Set() }}>{tree}</PrintProvider> : tree,
      );
      cleanup();
    }
}

/** Keys of the questions shown at once: a key shown twice is an answer two questions share. */
function shownTwice(definition: Definition, answers: Answers): string[] {
  const keys = visibleView(definition, answers, { now: NOW }).flatMap((page) =>
    questionsOf([page]).map((question) => question.key),
  );
  return keys.filter((key, index) => keys.indexOf(key) !== index);
}

afterEach(cleanup);

describe.each(['riverside', 'northfield'])('mutants of %s', (college) => {
  const original = readTenantFile(`${college}/definition.json`);

  it('are refused with a path, or accepted and then work', () => {
    const mutation = fc.record({
      kind: fc.constantFrom(...MUTATIONS),
      a: fc.nat(),
      b: fc.nat(),
      c: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations) => {
        const mutant = structuredClone(original);
        for (const change of mutations) mutate(mutant, change);
        const { definition, problems } = definitionFileProblems(mutant);
        if (!definition) {
          expect(problems.length).toBeGreaterThan(0);
          for (const problem of problems) {
            expect(problem.path).toMatch(/\S/);
            expect(problem.message).toMatch(/\S/);
          }
          return;
        }
        expect(problems).toEqual([]);
        for (const answers of [{}, sampleAnswers(definition)]) {
          validateAnswers(definition, answers, { now: NOW });
          renderApplicationHtml({ definition, answers, documents: [], now: NOW });
          expect(shownTwice(definition, answers)).toEqual([]);
        }
        renderPages(definition, sampleAnswers(definition));
      }),
      { numRuns: RUNS[college] },
    );
  }, 120_000);
});
