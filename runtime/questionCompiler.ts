/** Compiling one question: its keys and their types, its options, its checks and its instance. */
import { compileCondition, conditionKeys } from './conditions';
import { ConfigurationError } from './errors';
import {
  type Definition,
  type OptionEntry,
  type OptionSource,
  type Question,
  type Rule,
} from './format';
import { descKey, slotKey } from './keys';
import { hasChoices, resolveOptions, yearOptions, BLANK_OPTION } from './options';
import { compileRule } from './rules';
import { internalized, readAnswer, type Answers } from './values';
import type { Branch, CompiledNode, FieldInstance } from './compiledModel';
import type { Compiler, Scope } from './compiler';

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DEFAULT_MONTHS: readonly OptionEntry[] = [
  BLANK_OPTION,
  ...MONTH_NAMES.map((label, i) => ({ value: String(i + 1), label })),
];

const TEXT_LIMITS = {
  text: 45,
  textarea: 1500,
  phone: 14,
  ssn: 11,
  number: 16,
  choice: 100,
  desc: 200,
  month: 2,
  year: 4,
  lookup: 150,
} as const;

/** The options of a source now, an unknown list's name refused with the path it is at. */
function optionsAt(definition: Definition, source: OptionSource, path: string) {
  try {
    return resolveOptions(definition, source, new Date());
  } catch (error) {
    if (error instanceof ConfigurationError && error.path === undefined)
      throw new ConfigurationError(error.message, path);
    throw error;
  }
}

export function compileQuestion(
  compiler: Compiler,
  question: Question,
  scope: Scope,
): CompiledNode {
  const { slot, page, path } = scope;
  const key = internalized(slotKey(slot, question.key));
  const resolve = compiler.resolver(slot, path);
  let guard = scope.guard;
  let options: FieldInstance['options'] = null;
  let controlKey: string | null = null;
  let desc: string | null = null;
  let yearKey: string | null = null;
  let fillKeys: string[] = [];
  let monthOptions: readonly OptionEntry[] | null = null;
  const owned = [key];

  const kind = question.kind;
  switch (kind) {
    case 'text':
    case 'textarea':
    case 'phone':
    case 'ssn':
    case 'number': {
      const limit =
        kind === 'text' || kind === 'textarea'
          ? (question.maxLength ?? TEXT_LIMITS[kind])
          : TEXT_LIMITS[kind];
      const masked = kind === 'ssn' && question.inCopies === 'lastFour';
      compiler.addKey(
        key,
        { type: 'text', maxLength: limit, ...(masked ? { lastFourInCopies: true } : {}) },
        page,
      );
      break;
    }
    case 'date':
      compiler.addKey(key, { type: 'date' }, page);
      break;
    case 'checkbox':
      compiler.addKey(key, { type: 'boolean' }, page);
      break;
    case 'file':
      compiler.addKey(key, { type: 'document' }, page);
      break;
    case 'monthYear': {
      const definition = compiler.definition;
      const years = question.years;
      const months = Object.prototype.hasOwnProperty.call(definition.optionLists, 'months')
        ? (definition.optionLists.months as readonly OptionEntry[])
        : DEFAULT_MONTHS;
      options = (_answers, now) => yearOptions(years, now);
      monthOptions = months;
      yearKey = slotKey(slot, question.yearKey);
      owned.push(yearKey);
      compiler.addKey(key, { type: 'text', maxLength: TEXT_LIMITS.month }, page);
      compiler.addKey(yearKey, { type: 'text', maxLength: TEXT_LIMITS.year }, page);
      break;
    }
    case 'lookup':
      if (!question.key.startsWith(question.prefix)) {
        compiler.prefixProblems.push({ prefix: question.prefix, key: question.key, path });
      }
      fillKeys = question.fills.map((field) => slotKey(slot, question.prefix + field));
      compiler.addKey(key, { type: 'text', maxLength: TEXT_LIMITS.lookup }, page);
      for (const fill of fillKeys) {
        if (fill !== key)
          compiler.addKey(fill, { type: 'text', maxLength: TEXT_LIMITS.lookup }, page, true);
        if (fill !== key) owned.push(fill);
      }
      break;
    case 'select':
    case 'radio': {
      const definition = compiler.definition;
      const source = question.options;
      const fixed = optionsAt(definition, source, `${path}.options`); // validates the list name now
      const generated = typeof source === 'object' && !Array.isArray(source);
      options = generated
        ? (_answers, now) => resolveOptions(definition, source, now)
        : () => fixed;
      if (question.description !== false) {
        desc = descKey(key);
        owned.push(desc);
      }
      compiler.addKey(key, { type: 'text', maxLength: TEXT_LIMITS.choice }, page);
      if (desc) compiler.addKey(desc, { type: 'text', maxLength: TEXT_LIMITS.desc }, page);
      if (question.kind === 'select' && question.conditional) {
        const conditional = question.conditional;
        if (conditional.category === 'displayOnly') {
          const when = compileCondition(
            compiler.condition(conditional.when, scope, `${path}.conditional.when`),
            resolve,
          );
          guard = compiler.guard(
            guard,
            (answers) => when(answers),
            () => true,
          );
        } else {
          const control = conditional.control;
          controlKey =
            control.scope === 'slot' ? slotKey(slot, control.valueKey) : control.valueKey;
          if (control.scope === 'slot' && !slot) {
            throw new ConfigurationError(
              `Control "${control.valueKey}" uses scope "slot" outside a repeat`,
              path,
            );
          }
          compiler.references.push({ key: controlKey, path: `${path}.conditional.control` });
          compiler.viewKeys.add(controlKey);
          const byValue = new Map<string, readonly OptionEntry[]>();
          for (const [value, listSource] of Object.entries(conditional.optionsByValue)) {
            byValue.set(
              value,
              optionsAt(definition, listSource, `${path}.conditional.optionsByValue.${value}`),
            );
          }
          const ctrl = controlKey;
          const listFor = (answers: Answers): readonly OptionEntry[] => {
            const value = readAnswer(answers, ctrl);
            return (typeof value === 'string' && byValue.get(value)) || [];
          };
          options = (answers) => listFor(answers);
          guard = compiler.guard(
            guard,
            (answers) => hasChoices(listFor(answers)),
            () => true,
          );
        }
      }
      break;
    }
    default:
      throw new ConfigurationError(
        `Unknown question kind ${JSON.stringify(kind satisfies never)}`,
        path,
      );
  }

  const checks = (question.rules ?? []).map((rule, index) => {
    const rulePath = `${path}.rules[${index}]`;
    if (rule.when) compiler.condition(rule.when, { ...scope, guard }, `${rulePath}.when`);
    return compileRule(rule, { key, yearKey, question, slot, resolve, path: rulePath });
  });
  // The question's own limit is a rule too, so the client reports what the server refuses.
  if ((question.kind === 'text' || question.kind === 'textarea') && question.maxLength) {
    const limit: Rule = { kind: 'maxLength', max: question.maxLength };
    checks.push(compileRule(limit, { key, yearKey, question, slot, resolve, path }));
  }

  const checkReads = new Set<string>(checks.length > 0 ? owned : []);
  for (const rule of question.rules ?? [])
    if (rule.when) for (const read of conditionKeys(rule.when, resolve)) checkReads.add(read);
  const requiredWhen = (question.rules ?? [])
    .filter((rule) => rule.kind === 'required' || rule.kind === 'mustBeTrue')
    .map((rule) => (rule.when ? compileCondition(rule.when, resolve) : () => true));
  const spec = compiler.keySpecs.get(key);
  const instance: FieldInstance = {
    maxLength: spec?.type === 'text' ? spec.maxLength : null,
    index: compiler.instances.length,
    checkReads: [...checkReads],
    isRequired: (answers) => requiredWhen.some((applies) => applies(answers)),
    key,
    question,
    page,
    slot,
    guard,
    descKey: desc,
    yearKey,
    fillKeys,
    ownedKeys: owned,
    checks,
    options,
    monthOptions,
    controlKey,
    resolve,
  };
  compiler.instances.push(instance);

  const content: Branch[] = [];
  if (question.kind === 'radio' && question.content) {
    const radioKey = key;
    compiler.viewKeys.add(radioKey);
    for (const [value, nodes] of Object.entries(question.content)) {
      const branchGuard = compiler.guard(
        guard,
        (answers) => {
          const answer = readAnswer(answers, radioKey);
          return answer !== undefined && answer !== null && String(answer) === value;
        },
        () => true,
      );
      content.push({
        value,
        guard: branchGuard,
        children: compiler.nodes(nodes, {
          ...scope,
          guard: branchGuard,
          path: `${path}.content.${value}`,
        }),
      });
    }
  }
  return { type: 'question', instance, content };
}
