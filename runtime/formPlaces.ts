/**
 * Where everything of a compiled definition is, for the form checks (checks.ts, formChecks.ts):
 * each question instance, container and condition with its path in the definition
 * (`pages[0].children[2].hideWhen`), its repeat slot and the branches of switches above it.
 */
import type { Comparison, Condition, Node } from './format';
import type { CompiledModel, CompiledNode, FieldInstance } from './compiledModel';
import { slotKey, type Slot } from './keys';

/** Which branch of each switch above a place it sits in (switch path → branch). */
export type Branches = ReadonlyMap<string, string>;

export interface QuestionPlace {
  readonly instance: FieldInstance;
  readonly path: string;
  readonly branches: Branches;
}

/** A condition or control that decides what is shown, and the keys of what it shows or hides. */
export interface GuardPlace {
  readonly path: string;
  /** The comparisons it reads, each with its path and its key resolved for the slot. */
  readonly reads: readonly { readonly key: string; readonly path: string }[];
  /** Every key owned by a question it shows or hides. */
  readonly guarded: ReadonlySet<string>;
}

export interface ConditionPlace {
  readonly condition: Condition;
  readonly path: string;
  readonly slot: Slot | null;
}

export interface ClearsPlace {
  readonly path: string;
  readonly keys: readonly string[];
  /** Every key owned by a question inside the container. */
  readonly inside: ReadonlySet<string>;
  readonly container: string;
}

export interface IdPlace {
  readonly kind: Node['kind'];
  readonly id: string;
  readonly path: string;
}

export interface FormPlaces {
  readonly questions: QuestionPlace[];
  readonly guards: GuardPlace[];
  readonly conditions: ConditionPlace[];
  readonly clears: ClearsPlace[];
  readonly ids: IdPlace[];
}

/** Every comparison of a condition with its path. */
export function comparisonsOf(
  condition: Condition,
  path: string,
): { comparison: Comparison; path: string }[] {
  if ('all' in condition)
    return condition.all.flatMap((c, i) => comparisonsOf(c, `${path}.all[${i}]`));
  if ('any' in condition)
    return condition.any.flatMap((c, i) => comparisonsOf(c, `${path}.any[${i}]`));
  if ('not' in condition) return comparisonsOf(condition.not, `${path}.not`);
  return [{ comparison: condition, path }];
}

const resolve = (comparison: Comparison, slot: Slot | null) =>
  comparison.scope === 'slot' ? slotKey(slot, comparison.valueKey) : comparison.valueKey;

class Walk implements FormPlaces {
  readonly questions: QuestionPlace[] = [];
  readonly guards: GuardPlace[] = [];
  readonly conditions: ConditionPlace[] = [];
  readonly clears: ClearsPlace[] = [];
  readonly ids: IdPlace[] = [];
  private readonly seenIds = new Set<string>();

  id(kind: Node['kind'], id: string, path: string) {
    // Each slot of a repeat walks the same nodes: one place per path.
    if (this.seenIds.has(path)) return;
    this.seenIds.add(path);
    this.ids.push({ kind, id, path });
  }

  condition(condition: Condition, path: string, slot: Slot | null, guarded: ReadonlySet<string>) {
    this.conditions.push({ condition, path, slot });
    const reads = comparisonsOf(condition, path).map((c) => ({
      key: resolve(c.comparison, slot),
      path: `${c.path}.valueKey`,
    }));
    this.guards.push({ path, reads, guarded });
  }

  /** Walks compiled nodes; returns every key owned by a question among them. */
  nodes(
    nodes: readonly CompiledNode[],
    path: string,
    slot: Slot | null,
    branches: Branches,
  ): Set<string> {
    const owned = new Set<string>();
    nodes.forEach((node, index) => {
      for (const key of this.node(node, `${path}[${index}]`, slot, branches)) owned.add(key);
    });
    return owned;
  }

  private branch(branches: Branches, path: string, branch: string): Branches {
    return new Map([...branches, [path, branch]]);
  }

  node(node: CompiledNode, path: string, slot: Slot | null, branches: Branches): Set<string> {
    switch (node.type) {
      case 'question': {
        const { instance } = node;
        this.questions.push({ instance, path, branches });
        const owned = new Set(instance.ownedKeys);
        const question = instance.question;
        for (const [index, rule] of (question.rules ?? []).entries())
          if (rule.when)
            this.conditions.push({
              condition: rule.when,
              path: `${path}.rules[${index}].when`,
              slot,
            });
        if (question.kind === 'select' && question.conditional) {
          const conditional = question.conditional;
          if (conditional.category === 'displayOnly')
            this.condition(conditional.when, `${path}.conditional.when`, slot, owned);
          else
            this.guards.push({
              path: `${path}.conditional.control`,
              reads: [
                { key: instance.controlKey ?? '', path: `${path}.conditional.control.valueKey` },
              ],
              guarded: owned,
            });
        }
        for (const branch of node.content) {
          const at = `${path}.content.${branch.value}`;
          const inside = this.nodes(branch.children, at, slot, this.branch(branches, path, at));
          for (const key of inside) owned.add(key);
        }
        return owned;
      }
      case 'paragraph':
        this.id('paragraph', node.node.id, path);
        return new Set();
      case 'section': {
        const section = node.node;
        this.id('section', section.id, path);
        const inside = this.nodes(node.children, `${path}.children`, slot, branches);
        if (section.hideWhen) this.condition(section.hideWhen, `${path}.hideWhen`, slot, inside);
        if (Array.isArray(section.clears))
          this.clears.push({
            path: `${path}.clears`,
            keys: (section.clears as readonly string[]).map((local) => slotKey(slot, local)),
            inside,
            container: 'section',
          });
        return inside;
      }
      case 'repeat': {
        this.id('repeat', node.node.id, path);
        const owned = new Set<string>();
        for (const instance of node.instances)
          for (const key of this.nodes(
            instance.children,
            `${path}.children`,
            instance.slot,
            branches,
          ))
            owned.add(key);
        return owned;
      }
      case 'tabs': {
        this.id('tabs', node.node.id, path);
        const owned = new Set<string>();
        node.tabs.forEach((tab, index) => {
          const at = `${path}.tabs[${index}]`;
          const inside = this.nodes(
            tab.children,
            `${at}.children`,
            slot,
            this.branch(branches, path, at),
          );
          if (Array.isArray(tab.tab.clears))
            this.clears.push({
              path: `${at}.clears`,
              keys: (tab.tab.clears as readonly string[]).map((local) => slotKey(slot, local)),
              inside,
              container: 'tab',
            });
          for (const key of inside) owned.add(key);
        });
        return owned;
      }
      case 'buttonTrigger':
        this.id('trigger', node.node.id, path);
        return this.nodes(node.children, `${path}.after`, slot, branches);
      case 'checkboxTrigger': {
        this.id('trigger', node.node.id, path);
        this.questions.push({ instance: node.instance, path, branches });
        const owned = new Set(node.instance.ownedKeys);
        for (const side of [node.before, node.after]) {
          const at = `${path}.${side.value}`;
          for (const key of this.nodes(side.children, at, slot, this.branch(branches, path, at)))
            owned.add(key);
        }
        return owned;
      }
      case 'exclusive': {
        this.id('exclusive', node.node.id, path);
        const owned = new Set<string>();
        node.cases.forEach((branch, index) => {
          const at = `${path}.cases[${index}]`;
          const inside = this.nodes(
            branch.children,
            `${at}.children`,
            slot,
            this.branch(branches, path, at),
          );
          for (const key of inside) owned.add(key);
        });
        node.node.cases.forEach((c, index) =>
          this.condition(c.when, `${path}.cases[${index}].when`, slot, owned),
        );
        return owned;
      }
    }
  }
}

/** Every place of a compiled definition, in definition order. */
export function formPlaces(model: CompiledModel): FormPlaces {
  const walk = new Walk();
  model.pages.forEach((page, index) =>
    walk.nodes(page.children, `pages[${index}].children`, null, new Map()),
  );
  return walk;
}
