/**
 * The checks every form must pass besides its format (checkDefinition, D194): each question stores
 * under a key of its own, every condition reads a key some question stores and compares it with one
 * of its codes, no condition hides the question it waits for, option codes are non-empty and
 * distinct, labels are visible, ids and page paths are unique. Each problem names its path.
 */
import type { Definition, OptionEntry, OptionSource, Question, Scalar } from './format';
import type { CompiledModel, FieldInstance } from './compiledModel';
import { comparisonsOf, formPlaces, type Branches, type QuestionPlace } from './formPlaces';
import { slotKey } from './keys';
import { resolveOptions } from './options';
import { BLANK } from './values';

export type FormProblemCode =
  | 'sharedKey'
  | 'unknownKey'
  | 'ownFollowUp'
  | 'unknownTarget'
  | 'unknownBranch'
  | 'optionCode'
  | 'optionLabel'
  | 'duplicateId'
  | 'clearsOutside'
  | 'unknownRoute';

export interface FormProblem {
  readonly code: FormProblemCode;
  readonly path: string;
  readonly message: string;
  readonly keys: readonly string[];
}

const quote = (value: unknown) => JSON.stringify(value);
const CHOICE_KINDS = new Set(['select', 'radio']);

/** A fixed list of options, or null when they are generated (years) or cannot be told. */
function fixedOptions(definition: Definition, source: OptionSource): readonly OptionEntry[] | null {
  if (typeof source === 'object' && !Array.isArray(source)) return null;
  return resolveOptions(definition, source, new Date(0));
}

/** The codes a choice question can store: every list it may offer; null when not fixed. */
function codesOf(definition: Definition, question: Question): readonly OptionEntry[] | null {
  if (question.kind === 'monthYear') return null;
  if (!CHOICE_KINDS.has(question.kind) || !('options' in question)) return null;
  if (question.kind === 'select' && question.conditional?.category === 'displayAndOptions') {
    const all: OptionEntry[] = [];
    for (const source of Object.values(question.conditional.optionsByValue)) {
      const list = fixedOptions(definition, source);
      if (!list) return null;
      all.push(...list);
    }
    return all;
  }
  return fixedOptions(definition, question.options);
}

/** Whether two places of one key sit in different branches of one switch (never shown together). */
function apart(a: Branches, b: Branches): boolean {
  for (const [at, branch] of a) if (b.has(at) && b.get(at) !== branch) return true;
  return false;
}

/** The same question asked in two places: the same kind and options (one answer means the same). */
function sameQuestion(a: Question, b: Question): boolean {
  if (a.kind !== b.kind) return false;
  const options = (q: Question) => ('options' in q ? JSON.stringify(q.options) : '');
  return options(a) === options(b);
}

function storedKeys(instance: FieldInstance): { key: string; what: string }[] {
  const keys = [{ key: instance.key, what: 'the answer' }];
  if (instance.descKey) keys.push({ key: instance.descKey, what: 'the label of the choice' });
  if (instance.yearKey) keys.push({ key: instance.yearKey, what: 'the year' });
  return keys;
}

function sharedKeys(places: readonly QuestionPlace[], problems: FormProblem[]): void {
  const first = new Map<string, { place: QuestionPlace; what: string }>();
  for (const place of places) {
    for (const { key, what } of storedKeys(place.instance)) {
      const earlier = first.get(key);
      if (!earlier) {
        first.set(key, { place, what });
        continue;
      }
      if (earlier.place.path === place.path && earlier.place.instance === place.instance) continue;
      const shared =
        !apart(earlier.place.branches, place.branches) ||
        !sameQuestion(earlier.place.instance.question, place.instance.question);
      if (!shared) continue;
      problems.push({
        code: 'sharedKey',
        path: place.path,
        keys: [key],
        message: `stores ${what} under "${key}", where the question at ${earlier.place.path} stores ${earlier.what}: two questions would share one stored answer, and answering one would overwrite the other`,
      });
    }
  }
}

function optionList(list: readonly OptionEntry[], path: string, problems: FormProblem[]): void {
  const seen = new Map<string, number>();
  list.forEach((option, index) => {
    const at = `${path}[${index}]`;
    if (option.value.trim() === '')
      problems.push({
        code: 'optionCode',
        path: `${at}.value`,
        keys: [],
        message: 'an option needs a code: an empty code is stored as no answer at all',
      });
    else if (seen.has(option.value))
      problems.push({
        code: 'optionCode',
        path: `${at}.value`,
        keys: [],
        message: `the code ${quote(option.value)} is also the code of ${path}[${seen.get(option.value)}]: the two choices could not be told apart`,
      });
    else seen.set(option.value, index);
    if (option.value !== BLANK && option.label.trim() === '')
      problems.push({
        code: 'optionLabel',
        path: `${at}.label`,
        keys: [],
        message: `the option ${quote(option.value)} needs a label: an empty label is a choice nobody can see`,
      });
  });
}

function inlineLists(question: Question, path: string, problems: FormProblem[]): void {
  if (!('options' in question)) return;
  if (Array.isArray(question.options))
    optionList(question.options as readonly OptionEntry[], `${path}.options`, problems);
  if (question.kind === 'select' && question.conditional?.category === 'displayAndOptions')
    for (const [value, source] of Object.entries(question.conditional.optionsByValue))
      if (Array.isArray(source))
        optionList(
          source as readonly OptionEntry[],
          `${path}.conditional.optionsByValue.${value}`,
          problems,
        );
}

function codeList(options: readonly OptionEntry[]): string {
  const codes = options.map((option) => option.value);
  return codes.length > 8 ? `${codes.slice(0, 8).join(', ')}, …` : codes.join(', ');
}

function targetProblem(
  key: string,
  target: Scalar,
  question: Question,
  options: readonly OptionEntry[] | null,
): string | null {
  if (target === null || target === '' || target === BLANK) return null;
  if (question.kind === 'checkbox') {
    return target === true || target === false || target === 'true' || target === 'false'
      ? null
      : `compares the check box "${key}" with ${quote(target)}: a check box stores true or false`;
  }
  if (!options || options.some((option) => option.value === String(target))) return null;
  const byLabel = options.find((option) => option.label === String(target));
  return `compares "${key}" with ${quote(target)}, which is none of its option codes (${codeList(options)})${
    byLabel
      ? `: ${quote(target)} is the label of the code ${quote(byLabel.value)}, and conditions compare codes`
      : ''
  }`;
}

/** Every check of this module over a loaded definition and its compiled model. */
export function formProblems(definition: Definition, model: CompiledModel): FormProblem[] {
  const problems: FormProblem[] = [];
  const places = formPlaces(model);
  sharedKeys(places.questions, problems);

  const byKey = new Map<string, Question>();
  for (const { instance } of places.questions)
    if (!byKey.has(instance.key)) byKey.set(instance.key, instance.question);
  const stored = model.keySpecs;

  // Conditions: a key some question stores, compared with one of its codes.
  for (const { condition, path, slot } of places.conditions)
    for (const { comparison, path: at } of comparisonsOf(condition, path)) {
      const key =
        comparison.scope === 'slot' ? slotKey(slot, comparison.valueKey) : comparison.valueKey;
      if (!stored.has(key)) {
        problems.push({
          code: 'unknownKey',
          path: `${at}.valueKey`,
          keys: [key],
          message: `reads "${key}", which no question of this form stores: the condition can never be met as meant`,
        });
        continue;
      }
      const question = byKey.get(key);
      if (!question || !['equals', 'notEquals', 'in', 'notIn'].includes(comparison.operator))
        continue;
      const options = codesOf(definition, question);
      const targets = Array.isArray(comparison.target) ? comparison.target : [comparison.target];
      for (const target of targets as Scalar[]) {
        const problem = targetProblem(key, target, question, options);
        if (problem)
          problems.push({
            code: 'unknownTarget',
            path: `${at}.target`,
            keys: [key],
            message: problem,
          });
      }
    }

  // A condition may not wait for an answer to a question it hides itself.
  for (const guard of places.guards)
    for (const read of guard.reads) {
      if (!stored.has(read.key) && read.path.endsWith('.control.valueKey'))
        problems.push({
          code: 'unknownKey',
          path: read.path,
          keys: [read.key],
          message: `reads "${read.key}", which no question of this form stores`,
        });
      else if (guard.guarded.has(read.key))
        problems.push({
          code: 'ownFollowUp',
          path: read.path,
          keys: [read.key],
          message: `reads "${read.key}", an answer to a question it shows or hides itself: that question waits for its own answer and may never be shown`,
        });
    }

  // A radio's content and a select's lists by value are keyed by the codes of the chosen answer.
  for (const { instance, path } of places.questions) {
    const question = instance.question;
    inlineLists(question, path, problems);
    let branchCodes: {
      values: string[];
      of: string;
      options: readonly OptionEntry[] | null;
      at: string;
    } | null = null;
    if (question.kind === 'radio' && question.content)
      branchCodes = {
        values: Object.keys(question.content),
        of: instance.key,
        options: fixedOptions(definition, question.options),
        at: `${path}.content`,
      };
    if (question.kind === 'select' && question.conditional?.category === 'displayAndOptions') {
      const control = instance.controlKey ?? '';
      const controlling = byKey.get(control);
      branchCodes = {
        values: Object.keys(question.conditional.optionsByValue),
        of: control,
        options: controlling ? codesOf(definition, controlling) : null,
        at: `${path}.conditional.optionsByValue`,
      };
    }
    if (!branchCodes?.options) continue;
    const codes = new Set(branchCodes.options.map((option) => option.value));
    for (const value of branchCodes.values)
      if (!codes.has(value))
        problems.push({
          code: 'unknownBranch',
          path: `${branchCodes.at}.${value}`,
          keys: [branchCodes.of],
          message: `${quote(value)} is none of the option codes of "${branchCodes.of}" (${codeList(branchCodes.options)}): this content is never shown`,
        });
  }

  for (const [name, list] of Object.entries(definition.optionLists))
    optionList(list, `optionLists.${name}`, problems);

  for (const clears of places.clears)
    clears.keys.forEach((key, index) => {
      if (!clears.inside.has(key))
        problems.push({
          code: 'clearsOutside',
          path: `${clears.path}[${index}]`,
          keys: [key],
          message: `names "${key}", which no question inside this ${clears.container} stores: it clears nothing`,
        });
    });

  const ids = new Map<string, string>();
  for (const place of places.ids) {
    const name = `${place.kind}:${place.id}`;
    const earlier = ids.get(name);
    if (earlier === undefined) ids.set(name, place.path);
    else
      problems.push({
        code: 'duplicateId',
        path: `${place.path}.id`,
        keys: [],
        message: `the ${place.kind} at ${earlier} has the id ${quote(place.id)} too: each ${place.kind} needs an id of its own`,
      });
  }
  const paths = new Map<string, number>();
  definition.pages.forEach((page, index) => {
    const earlier = paths.get(page.path);
    if (earlier === undefined) paths.set(page.path, index);
    else
      problems.push({
        code: 'duplicateId',
        path: `pages[${index}].path`,
        keys: [],
        message: `pages[${earlier}] has the path ${quote(page.path)} too: each page needs a path of its own`,
      });
  });
  if (!paths.has(definition.defaultRoute))
    problems.push({
      code: 'unknownRoute',
      path: 'defaultRoute',
      keys: [],
      message: `${quote(definition.defaultRoute)} is the path of no page (${[...paths.keys()].join(', ')})`,
    });
  return unique(problems);
}

/** One problem per path and message: a repeat's slots walk the same nodes. */
function unique(problems: readonly FormProblem[]): FormProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const id = `${problem.path}\n${problem.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * Where each key a definition stores is asked: the path of the first question storing it (its own
 * key, the label of its choice, its year, the keys a lookup fills).
 */
export function storedKeyPaths(model: CompiledModel): ReadonlyMap<string, string> {
  const paths = new Map<string, string>();
  for (const { instance, path } of formPlaces(model).questions)
    for (const key of instance.ownedKeys) if (!paths.has(key)) paths.set(key, path);
  return paths;
}
