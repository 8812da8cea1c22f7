/**
 * The compiled model of a definition, built once per definition object and cached. The pieces:
 * compiledModel.ts (types), compiler.ts and questionCompiler.ts (compiling), guards.ts (evaluating).
 */
import { ConfigurationError } from './errors';
import { type Definition, type Tabs } from './format';
import type { CompiledModel, CompiledPage, FieldInstance } from './compiledModel';
import { Compiler } from './compiler';
import { internalized, isPrototypeName } from './values';

export * from './compiledModel';
export {
  shownInstances,
  chosenTab,
  newMemo,
  scratchMemo,
  guardOpen,
  chainOpen,
  type GuardMemo,
} from './guards';

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

  const checked = compiler.instances.filter((instance) => instance.checks.length > 0);
  const model: CompiledModel = {
    definition,
    pages,
    guardCount: compiler.totalGuards,
    instances: compiler.instances,
    checked,
    checkedByKey: groupByKey(checked),
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

function groupByKey(instances: readonly FieldInstance[]): CompiledModel['checkedByKey'] {
  const groups = new Map<
    string,
    { key: string; inherited: boolean; pageId: string; instances: FieldInstance[] }
  >();
  for (const instance of instances) {
    const group = groups.get(instance.key);
    if (group) group.instances.push(instance);
    else
      groups.set(instance.key, {
        key: instance.key,
        inherited: isPrototypeName(instance.key),
        pageId: internalized(instance.page.id),
        instances: [instance],
      });
  }
  return [...groups.values()];
}

/** Add-another groups of a definition: button id → maximum instances (SPEC 4.8). */
export function addAnotherGroups(definition: Definition): ReadonlyMap<string, number> {
  return compile(definition).addAnotherGroups;
}

/** Tab groups of a definition by id (SPEC 4.6). */
export function tabGroups(definition: Definition): ReadonlyMap<string, Tabs> {
  return compile(definition).tabGroups;
}
