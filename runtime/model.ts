/**
 * The compiled model of a definition, built once per definition object and cached.
 *
 * Every piece of conditional content becomes a *guard*: a predicate on the answers and the UI state
 * (add-another counts, chosen tabs, clicked triggers) with a parent guard. A question is visible when
 * its innermost guard and all its parents hold. Validation, the view model and clearing all read the
 * same guards, so visibility is decided in one place.
 */
import { comparisonProblem, compileCondition, conditionKeys, type KeyResolver } from './conditions';
import { ConfigurationError, MAX_ADD_ANOTHER, MAX_COMPONENTS_MESSAGE } from './errors';
import {
  type ButtonTrigger,
  type CheckboxQuestion,
  type CheckboxTrigger,
  type ClearList,
  type Condition,
  type Definition,
  type Exclusive,
  type Node,
  type OptionEntry,
  type Page,
  type Paragraph,
  type Question,
  type Repeat,
  type Rule,
  type Section,
  type Tab,
  type Tabs,
} from './format';
import { descKey, slotKey, type Slot } from './keys';
import { hasChoices, resolveOptions, yearOptions, BLANK_OPTION } from './options';
import { compileRule, type Check } from './rules';
import { isEmpty, readAnswer, type Answers } from './values';

/** UI state that decides visibility besides the answers (SPEC 3.5). */
export interface ViewState {
  /** Shown instances per add-another button id (default 1). */
  readonly addAnother?: Readonly<Record<string, number>>;
  /** Chosen tab per tab group id (default: the group's default tab). */
  readonly tabs?: Readonly<Record<string, string>>;
  /** Button triggers that were clicked. */
  readonly triggers?: Readonly<Record<string, boolean>>;
}

export interface Guard {
  readonly id: number;
  readonly parent: Guard | null;
  /** This guard alone (parents not included). */
  readonly holds: (answers: Answers, state: ViewState) => boolean;
  /** Which keys this guard clears while it hides its content; null: it never clears. */
  readonly clears: ((key: string) => boolean) | null;
}

/** What an answer key may hold: the server's whitelist and type check. */
export type KeySpec =
  | {
      readonly type: 'text';
      readonly maxLength: number;
      /** Copies of the application (staff view, PDF) show only the last four digits. */
      readonly lastFourInCopies?: true;
    }
  | { readonly type: 'boolean' }
  | { readonly type: 'document' };

export interface FieldInstance {
  /** Position in `CompiledModel.instances`. */
  readonly index: number;
  /** Every answer key this question's checks read (its own keys and its rules' conditions). */
  readonly checkReads: readonly string[];
  /** The answer key (slot prefix or suffix applied). */
  readonly key: string;
  readonly question: Question;
  readonly page: Page;
  readonly slot: Slot | null;
  /** The innermost guard; null when the question is always visible. */
  readonly guard: Guard | null;
  readonly descKey: string | null;
  readonly yearKey: string | null;
  /** Lookup questions: the keys a chosen entry fills. */
  readonly fillKeys: readonly string[];
  /** Every key this question owns (cleared together). */
  readonly ownedKeys: readonly string[];
  readonly checks: readonly Check[];
  /** The options offered for the current answers (select and radio; the years of a month/year), else null. */
  readonly options: ((answers: Answers, now: Date) => readonly OptionEntry[]) | null;
  /** Month/year questions: the months (the definition's `months` list, else January to December). */
  readonly monthOptions: readonly OptionEntry[] | null;
  /** displayAndOptions: the controlling key whose change clears this answer. */
  readonly controlKey: string | null;
  /** True while a `required` (or `mustBeTrue`) rule of the question applies to these answers. */
  readonly isRequired: (answers: Answers) => boolean;
  readonly resolve: KeyResolver;
}

export type CompiledNode =
  | {
      readonly type: 'question';
      readonly instance: FieldInstance;
      readonly content: readonly Branch[];
    }
  | { readonly type: 'paragraph'; readonly node: Paragraph }
  | {
      readonly type: 'section';
      readonly node: Section;
      readonly guard: Guard | null;
      readonly children: readonly CompiledNode[];
    }
  | {
      readonly type: 'repeat';
      readonly node: Repeat;
      readonly max: number;
      readonly instances: readonly SlotBranch[];
    }
  | { readonly type: 'tabs'; readonly node: Tabs; readonly tabs: readonly TabBranch[] }
  | {
      readonly type: 'buttonTrigger';
      readonly node: ButtonTrigger;
      readonly guard: Guard;
      readonly children: readonly CompiledNode[];
    }
  | {
      readonly type: 'checkboxTrigger';
      readonly node: CheckboxTrigger;
      readonly instance: FieldInstance;
      readonly before: Branch;
      readonly after: Branch;
    }
  | { readonly type: 'exclusive'; readonly node: Exclusive; readonly cases: readonly Branch[] };

export interface Branch {
  readonly value: string;
  readonly guard: Guard;
  readonly children: readonly CompiledNode[];
}
export interface SlotBranch {
  readonly slot: Slot;
  readonly guard: Guard | null;
  readonly children: readonly CompiledNode[];
}
export interface TabBranch {
  readonly tab: Tab;
  readonly guard: Guard;
  readonly children: readonly CompiledNode[];
}

export interface CompiledPage {
  readonly page: Page;
  readonly children: readonly CompiledNode[];
}

export interface CompiledModel {
  readonly definition: Definition;
  readonly pages: readonly CompiledPage[];
  readonly guardCount: number;
  /** Every question instance in definition order. */
  readonly instances: readonly FieldInstance[];
  /** Instances that carry checks (what full validation walks). */
  readonly checked: readonly FieldInstance[];
  /** Instances by answer key, including the year key of month/year questions. */
  readonly byKey: ReadonlyMap<string, readonly FieldInstance[]>;
  /** The tenant data model: every key the definition can produce, with its type. */
  readonly keySpecs: ReadonlyMap<string, KeySpec>;
  /** The page of each key (the first page it appears on). */
  readonly keyPage: ReadonlyMap<string, Page>;
  /** Keys that appear on more than one page (a developer-time problem). */
  readonly keysOnSeveralPages: ReadonlyMap<string, readonly string[]>;
  /** Keys referenced by conditions and clear lists, with where they are referenced. */
  readonly references: readonly { readonly key: string; readonly path: string }[];
  /** Lookup questions whose prefix is not part of their key. */
  readonly prefixProblems: readonly {
    readonly prefix: string;
    readonly key: string;
    readonly path: string;
  }[];
  /** Add-another groups: button id → maximum instances. */
  readonly addAnotherGroups: ReadonlyMap<string, number>;
  /** Tab groups by id. */
  readonly tabGroups: ReadonlyMap<string, Tabs>;
  /** Keys whose value the view reads (conditions, radio content, check boxes, controls, required-when). */
  readonly viewKeys: ReadonlySet<string>;
  /** Keys whose emptiness alone the view reads (add-another slots and button triggers with answers). */
  readonly presenceKeys: ReadonlySet<string>;
  /** The question instances owning each answer key (its own, `_desc`, year and lookup fill keys). */
  readonly owners: ReadonlyMap<string, readonly FieldInstance[]>;
  /** For each answer key, the answer keys whose checks read it (their errors may change with it). */
  readonly dependants: ReadonlyMap<string, readonly string[]>;
}

/** Counts what the runtime does, for tests that bound the work per change (unset: no cost). */
export const instrumentation: {
  /** A visibility walk starts: the guards of a definition are evaluated afresh. */
  onWalk?: () => void;
  /** The checks of one answer key run. */
  onValidateKey?: (key: string) => void;
} = {};

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
  date: 10,
  phone: 14,
  ssn: 11,
  number: 16,
  choice: 100,
  desc: 200,
  month: 2,
  year: 4,
  lookup: 150,
} as const;

interface Scope {
  readonly page: Page;
  readonly slot: Slot | null;
  readonly guard: Guard | null;
  readonly path: string;
}

class Compiler {
  private guardCount = 0;
  readonly instances: FieldInstance[] = [];
  readonly keySpecs = new Map<string, KeySpec>();
  readonly keyPage = new Map<string, Page>();
  readonly keyPages = new Map<string, Set<string>>();
  readonly references: { key: string; path: string }[] = [];
  readonly prefixProblems: { prefix: string; key: string; path: string }[] = [];
  readonly addAnotherGroups = new Map<string, number>();
  readonly tabGroups = new Map<string, Tabs>();
  readonly viewKeys = new Set<string>();
  readonly presenceKeys = new Set<string>();

  constructor(private readonly definition: Definition) {}

  guard(parent: Guard | null, holds: Guard['holds'], clears: Guard['clears']): Guard {
    return { id: this.guardCount++, parent, holds, clears };
  }

  get totalGuards(): number {
    return this.guardCount;
  }

  resolver(slot: Slot | null, path: string): KeyResolver {
    return (comparison) => {
      if (comparison.scope === 'slot') {
        if (!slot) {
          throw new ConfigurationError(
            `Condition on "${comparison.valueKey}" uses scope "slot" outside a repeat`,
            path,
          );
        }
        return slotKey(slot, comparison.valueKey);
      }
      return comparison.valueKey;
    };
  }

  /** Checks a condition's operators and targets at load time and records the keys it reads. */
  condition(condition: Condition, scope: Scope, path: string): Condition {
    assertCondition(condition, path);
    for (const key of conditionKeys(condition, this.resolver(scope.slot, path))) {
      this.references.push({ key, path });
      this.viewKeys.add(key);
    }
    return condition;
  }

  clearPredicate(
    list: ClearList | undefined,
    scope: Scope,
    path: string,
  ): (key: string) => boolean {
    if (list === undefined || list === 'all') return () => true;
    const keys = new Set(list.map((local) => slotKey(scope.slot, local)));
    for (const key of keys) this.references.push({ key, path });
    return (key) => keys.has(key);
  }

  /** Lookup fills register weakly: the question that owns the key (its own length) wins. */
  private readonly weakKeys = new Set<string>();

  addKey(key: string, spec: KeySpec, page: Page, weak = false): void {
    if (!this.keySpecs.has(key) || (this.weakKeys.has(key) && !weak)) {
      this.keySpecs.set(key, spec);
      if (weak) this.weakKeys.add(key);
      else this.weakKeys.delete(key);
    }
    if (!this.keyPage.has(key)) this.keyPage.set(key, page);
    let pages = this.keyPages.get(key);
    if (!pages) this.keyPages.set(key, (pages = new Set()));
    pages.add(page.id);
  }

  nodes(nodes: readonly Node[], scope: Scope): CompiledNode[] {
    return nodes.map((node, index) =>
      this.node(node, { ...scope, path: `${scope.path}[${index}]` }),
    );
  }

  node(node: Node, scope: Scope): CompiledNode {
    const kind = node.kind;
    switch (kind) {
      case 'text':
      case 'textarea':
      case 'date':
      case 'phone':
      case 'ssn':
      case 'number':
      case 'select':
      case 'radio':
      case 'checkbox':
      case 'monthYear':
      case 'lookup':
      case 'file':
        return this.question(node, scope);
      case 'paragraph':
        return { type: 'paragraph', node };
      case 'section':
        return this.section(node, scope);
      case 'repeat':
        return this.repeat(node, scope);
      case 'tabs':
        return this.tabs(node, scope);
      case 'trigger':
        return node.mode === 'button'
          ? this.buttonTrigger(node, scope)
          : this.checkboxTrigger(node, scope);
      case 'exclusive':
        return this.exclusive(node, scope);
      default:
        throw new ConfigurationError(
          `Unknown kind ${JSON.stringify(kind satisfies never)}`,
          scope.path,
        );
    }
  }

  question(question: Question, scope: Scope): CompiledNode {
    const { slot, page, path } = scope;
    const key = slotKey(slot, question.key);
    const resolve = this.resolver(slot, path);
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
      case 'date':
      case 'phone':
      case 'ssn':
      case 'number': {
        const limit =
          kind === 'text' || kind === 'textarea'
            ? (question.maxLength ?? TEXT_LIMITS[kind])
            : TEXT_LIMITS[kind];
        const masked = kind === 'ssn' && question.inCopies === 'lastFour';
        this.addKey(
          key,
          { type: 'text', maxLength: limit, ...(masked ? { lastFourInCopies: true } : {}) },
          page,
        );
        break;
      }
      case 'checkbox':
        this.addKey(key, { type: 'boolean' }, page);
        break;
      case 'file':
        this.addKey(key, { type: 'document' }, page);
        break;
      case 'monthYear': {
        const definition = this.definition;
        const years = question.years;
        const months = Object.prototype.hasOwnProperty.call(definition.optionLists, 'months')
          ? (definition.optionLists.months as readonly OptionEntry[])
          : DEFAULT_MONTHS;
        options = (_answers, now) => yearOptions(years, now);
        monthOptions = months;
        yearKey = slotKey(slot, question.yearKey);
        owned.push(yearKey);
        this.addKey(key, { type: 'text', maxLength: TEXT_LIMITS.month }, page);
        this.addKey(yearKey, { type: 'text', maxLength: TEXT_LIMITS.year }, page);
        break;
      }
      case 'lookup':
        if (!question.key.startsWith(question.prefix)) {
          this.prefixProblems.push({ prefix: question.prefix, key: question.key, path });
        }
        fillKeys = question.fills.map((field) => slotKey(slot, question.prefix + field));
        this.addKey(key, { type: 'text', maxLength: TEXT_LIMITS.lookup }, page);
        for (const fill of fillKeys) {
          if (fill !== key)
            this.addKey(fill, { type: 'text', maxLength: TEXT_LIMITS.lookup }, page, true);
          if (fill !== key) owned.push(fill);
        }
        break;
      case 'select':
      case 'radio': {
        const definition = this.definition;
        const source = question.options;
        const fixed = resolveOptions(definition, source, new Date()); // validates the list name now
        const generated = typeof source === 'object' && !Array.isArray(source);
        options = generated
          ? (_answers, now) => resolveOptions(definition, source, now)
          : () => fixed;
        if (question.description !== false) {
          desc = descKey(key);
          owned.push(desc);
        }
        this.addKey(key, { type: 'text', maxLength: TEXT_LIMITS.choice }, page);
        if (desc) this.addKey(desc, { type: 'text', maxLength: TEXT_LIMITS.desc }, page);
        if (question.kind === 'select' && question.conditional) {
          const conditional = question.conditional;
          if (conditional.category === 'displayOnly') {
            const when = compileCondition(
              this.condition(conditional.when, scope, `${path}.conditional.when`),
              resolve,
            );
            guard = this.guard(
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
            this.references.push({ key: controlKey, path: `${path}.conditional.control` });
            this.viewKeys.add(controlKey);
            const byValue = new Map<string, readonly OptionEntry[]>();
            for (const [value, listSource] of Object.entries(conditional.optionsByValue)) {
              byValue.set(value, resolveOptions(definition, listSource, new Date()));
            }
            const ctrl = controlKey;
            const listFor = (answers: Answers): readonly OptionEntry[] => {
              const value = readAnswer(answers, ctrl);
              return (typeof value === 'string' && byValue.get(value)) || [];
            };
            options = (answers) => listFor(answers);
            guard = this.guard(
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
      if (rule.when) this.condition(rule.when, { ...scope, guard }, `${rulePath}.when`);
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
    const instance: FieldInstance = {
      index: this.instances.length,
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
    this.instances.push(instance);

    const content: Branch[] = [];
    if (question.kind === 'radio' && question.content) {
      const radioKey = key;
      this.viewKeys.add(radioKey);
      for (const [value, nodes] of Object.entries(question.content)) {
        const branchGuard = this.guard(
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
          children: this.nodes(nodes, {
            ...scope,
            guard: branchGuard,
            path: `${path}.content.${value}`,
          }),
        });
      }
    }
    return { type: 'question', instance, content };
  }

  section(node: Section, scope: Scope): CompiledNode {
    let guard = scope.guard;
    if (node.hideWhen) {
      const hideWhen = compileCondition(
        this.condition(node.hideWhen, scope, `${scope.path}.hideWhen`),
        this.resolver(scope.slot, scope.path),
      );
      guard = this.guard(
        guard,
        (answers) => !hideWhen(answers),
        this.clearPredicate(node.clears, scope, `${scope.path}.clears`),
      );
    }
    const children = this.nodes(node.children, { ...scope, guard, path: `${scope.path}.children` });
    return { type: 'section', node, guard, children };
  }

  repeat(node: Repeat, scope: Scope): CompiledNode {
    const { path } = scope;
    if (scope.slot)
      throw new ConfigurationError('A repeat may not sit inside another repeat', path);
    const instances = node.instances;
    const max = instances.kind === 'prefix' ? instances.prefixes.length : instances.max;
    if (max > MAX_ADD_ANOTHER) throw new ConfigurationError(MAX_COMPONENTS_MESSAGE, path);
    if (instances.kind === 'suffix' && !node.addAnother) {
      throw new ConfigurationError(
        'A repeat with suffix instances needs an addAnother button',
        path,
      );
    }
    const addAnother = node.addAnother;
    if (addAnother) {
      if (this.addAnotherGroups.has(addAnother.buttonId)) {
        throw new ConfigurationError(
          `Duplicate add-another button id "${addAnother.buttonId}"`,
          path,
        );
      }
      this.addAnotherGroups.set(addAnother.buttonId, max);
    }
    const branches: SlotBranch[] = [];
    for (let index = 0; index < max; index++) {
      const slot: Slot = {
        repeatId: node.id,
        index,
        prefix: instances.kind === 'prefix' ? (instances.prefixes[index] as string) : null,
      };
      let guard = scope.guard;
      const ownKeys: string[] = [];
      if (addAnother && index > 0) {
        const buttonId = addAnother.buttonId;
        guard = this.guard(
          guard,
          (answers, state) =>
            index < shownInstances(state, buttonId, max) ||
            ownKeys.some((key) => !isEmpty(readAnswer(answers, key))),
          null,
        );
      }
      const before = this.instances.length;
      const children = this.nodes(node.children, {
        ...scope,
        slot,
        guard,
        path: `${path}.children`,
      });
      for (const instance of this.instances.slice(before)) ownKeys.push(...instance.ownedKeys);
      if (addAnother && index > 0) for (const key of ownKeys) this.presenceKeys.add(key);
      branches.push({ slot, guard, children });
    }
    return { type: 'repeat', node, max, instances: branches };
  }

  tabs(node: Tabs, scope: Scope): CompiledNode {
    const names = node.tabs.map((tab) => tab.name);
    if (!names.includes(node.defaultTab)) {
      throw new ConfigurationError(
        `Default tab "${node.defaultTab}" is not one of the tabs`,
        scope.path,
      );
    }
    if (this.tabGroups.has(node.id))
      throw new ConfigurationError(`Duplicate tab group id "${node.id}"`, scope.path);
    this.tabGroups.set(node.id, node);
    const tabs = node.tabs.map((tab, index): TabBranch => {
      const tabPath = `${scope.path}.tabs[${index}]`;
      const guard = this.guard(
        scope.guard,
        (_answers, state) => chosenTab(node, state) === tab.name,
        this.clearPredicate(tab.clears, scope, `${tabPath}.clears`),
      );
      return {
        tab,
        guard,
        children: this.nodes(tab.children, { ...scope, guard, path: `${tabPath}.children` }),
      };
    });
    return { type: 'tabs', node, tabs };
  }

  buttonTrigger(node: ButtonTrigger, scope: Scope): CompiledNode {
    const afterKeys: string[] = [];
    const guard = this.guard(
      scope.guard,
      (answers, state) =>
        state.triggers?.[node.id] === true ||
        afterKeys.some((key) => !isEmpty(readAnswer(answers, key))),
      null,
    );
    const before = this.instances.length;
    const children = this.nodes(node.after, { ...scope, guard, path: `${scope.path}.after` });
    for (const instance of this.instances.slice(before)) afterKeys.push(...instance.ownedKeys);
    for (const key of afterKeys) this.presenceKeys.add(key);
    return { type: 'buttonTrigger', node, guard, children };
  }

  checkboxTrigger(node: CheckboxTrigger, scope: Scope): CompiledNode {
    const checkbox: CheckboxQuestion = { kind: 'checkbox', key: node.key, label: node.label };
    const compiled = this.question(checkbox, scope);
    if (compiled.type !== 'question')
      throw new ConfigurationError('Checkbox trigger failed to compile', scope.path);
    const key = compiled.instance.key;
    this.viewKeys.add(key);
    const checked = (answers: Answers) => {
      const value = readAnswer(answers, key);
      return value === true || value === 'true';
    };
    const beforeGuard = this.guard(
      scope.guard,
      (answers) => !checked(answers),
      () => true,
    );
    const afterGuard = this.guard(scope.guard, checked, () => true);
    return {
      type: 'checkboxTrigger',
      node,
      instance: compiled.instance,
      before: {
        value: 'before',
        guard: beforeGuard,
        children: this.nodes(node.before, {
          ...scope,
          guard: beforeGuard,
          path: `${scope.path}.before`,
        }),
      },
      after: {
        value: 'after',
        guard: afterGuard,
        children: this.nodes(node.after, {
          ...scope,
          guard: afterGuard,
          path: `${scope.path}.after`,
        }),
      },
    };
  }

  exclusive(node: Exclusive, scope: Scope): CompiledNode {
    const resolve = this.resolver(scope.slot, scope.path);
    const conditions = node.cases.map((c, index) =>
      compileCondition(
        this.condition(c.when, scope, `${scope.path}.cases[${index}].when`),
        resolve,
      ),
    );
    const firstTrue = (answers: Answers) => conditions.findIndex((holds) => holds(answers));
    const cases = node.cases.map((c, index): Branch => {
      const guard = this.guard(
        scope.guard,
        (answers) => firstTrue(answers) === index,
        () => true,
      );
      return {
        value: String(index),
        guard,
        children: this.nodes(c.children, {
          ...scope,
          guard,
          path: `${scope.path}.cases[${index}].children`,
        }),
      };
    });
    return { type: 'exclusive', node, cases };
  }
}

/** Shown instances of an add-another group: the saved count, at least 1, at most the maximum. */
export function shownInstances(state: ViewState, buttonId: string, max: number): number {
  const count = state.addAnother?.[buttonId];
  if (typeof count !== 'number' || !Number.isFinite(count)) return 1;
  return Math.min(Math.max(Math.floor(count), 1), max);
}

/** The chosen tab of a group: the saved choice when it names a tab, else the default. */
export function chosenTab(node: Tabs, state: ViewState): string {
  const chosen = state.tabs?.[node.id];
  return chosen !== undefined && node.tabs.some((tab) => tab.name === chosen)
    ? chosen
    : node.defaultTab;
}

function assertCondition(condition: Condition, path: string): void {
  if (typeof condition !== 'object' || condition === null) {
    throw new ConfigurationError('A condition must be an object', path);
  }
  if ('all' in condition)
    return condition.all.forEach((c, i) => assertCondition(c, `${path}.all[${i}]`));
  if ('any' in condition)
    return condition.any.forEach((c, i) => assertCondition(c, `${path}.any[${i}]`));
  if ('not' in condition) return assertCondition(condition.not, `${path}.not`);
  const problem = comparisonProblem(condition);
  if (problem !== null) throw new ConfigurationError(problem, path);
}

const cache = new WeakMap<Definition, CompiledModel>();
/** The last definition used: an app validates against one definition, so most calls hit this. */
let last: CompiledModel | null = null;

/** The compiled model of a definition (compiled on first use, then cached per definition object). */
export function compile(definition: Definition): CompiledModel {
  if (last !== null && last.definition === definition) return last;
  const cached = cache.get(definition);
  if (cached) return (last = cached);
  const compiler = new Compiler(definition);
  const seenPages = new Set<string>();
  const pages = definition.pages.map((page, index): CompiledPage => {
    if (seenPages.has(page.id))
      throw new ConfigurationError(`Duplicate page id "${page.id}"`, `pages[${index}]`);
    seenPages.add(page.id);
    return {
      page,
      children: compiler.nodes(page.children, {
        page,
        slot: null,
        guard: null,
        path: `pages[${index}].children`,
      }),
    };
  });
  const byKey = new Map<string, FieldInstance[]>();
  const index = (key: string, instance: FieldInstance) => {
    const list = byKey.get(key);
    if (list) list.push(instance);
    else byKey.set(key, [instance]);
  };
  for (const instance of compiler.instances) {
    index(instance.key, instance);
    if (instance.yearKey) index(instance.yearKey, instance);
  }
  const dependants = new Map<string, string[]>();
  const owners = new Map<string, FieldInstance[]>();
  for (const instance of compiler.instances) {
    for (const key of instance.ownedKeys) {
      const list = owners.get(key);
      if (list) list.push(instance);
      else owners.set(key, [instance]);
    }
    for (const read of instance.checkReads) {
      const list = dependants.get(read);
      if (!list) dependants.set(read, [instance.key]);
      else if (!list.includes(instance.key)) list.push(instance.key);
    }
  }
  const keysOnSeveralPages = new Map<string, string[]>();
  for (const [key, pageIds] of compiler.keyPages)
    if (pageIds.size > 1) keysOnSeveralPages.set(key, [...pageIds]);

  const model: CompiledModel = {
    definition,
    pages,
    guardCount: compiler.totalGuards,
    instances: compiler.instances,
    checked: compiler.instances.filter((instance) => instance.checks.length > 0),
    byKey,
    keySpecs: compiler.keySpecs,
    keyPage: compiler.keyPage,
    keysOnSeveralPages,
    references: compiler.references,
    prefixProblems: compiler.prefixProblems,
    addAnotherGroups: compiler.addAnotherGroups,
    tabGroups: compiler.tabGroups,
    viewKeys: compiler.viewKeys,
    presenceKeys: compiler.presenceKeys,
    owners,
    dependants,
  };
  cache.set(definition, model);
  last = model;
  return model;
}

/** Per-call memo of guard results: 0 unknown, 1 holds, 2 fails. */
export type GuardMemo = Int8Array;

export function newMemo(model: CompiledModel): GuardMemo {
  instrumentation.onWalk?.();
  return new Int8Array(model.guardCount);
}

/** True when the guard and all its parents hold. */
export function guardOpen(
  guard: Guard | null,
  answers: Answers,
  state: ViewState,
  memo: GuardMemo,
): boolean {
  if (guard === null) return true;
  const known = memo[guard.id];
  if (known) return known === 1;
  const open = guardOpen(guard.parent, answers, state, memo) && guard.holds(answers, state);
  memo[guard.id] = open ? 1 : 2;
  return open;
}

/** The same as guardOpen without a memo: for one question, whose chain is short (what a keystroke costs). */
export function chainOpen(guard: Guard | null, answers: Answers, state: ViewState): boolean {
  for (let current = guard; current !== null; current = current.parent) {
    if (!current.holds(answers, state)) return false;
  }
  return true;
}

/** Add-another groups of a definition: button id → maximum instances (SPEC 4.8). */
export function addAnotherGroups(definition: Definition): ReadonlyMap<string, number> {
  return compile(definition).addAnotherGroups;
}

/** Tab groups of a definition by id (SPEC 4.6). */
export function tabGroups(definition: Definition): ReadonlyMap<string, Tabs> {
  return compile(definition).tabGroups;
}
