/** The compiler's walk over a definition's nodes: containers become guards, questions instances. */
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
  type Page,
  type Question,
  type Repeat,
  type Section,
  type Tabs,
} from './format';
import { slotKey, type Slot } from './keys';
import { isEmpty, readAnswer, type Answers } from './values';
import type {
  Branch,
  CompiledNode,
  FieldInstance,
  Guard,
  KeySpec,
  SlotBranch,
  TabBranch,
} from './compiledModel';
import { chosenTab, shownInstances } from './guards';
import { compileQuestion } from './questionCompiler';

export interface Scope {
  readonly page: Page;
  readonly slot: Slot | null;
  readonly guard: Guard | null;
  readonly path: string;
}

export class Compiler {
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

  constructor(readonly definition: Definition) {}

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
    return compileQuestion(this, question, scope);
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

export function assertCondition(condition: Condition, path: string): void {
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
