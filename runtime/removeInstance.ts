/**
 * Removing an added instance of a repeat (SPEC 4.8, D148): its answers go, the later instances move
 * down one so no gap remains, the last one is emptied and one fewer is shown. A pure function of
 * the answers; the app saves the result like any change, and the server checks it as it checks
 * every save.
 */
import { isEmpty, readAnswer, type Answers } from './values';
import { ConfigurationError } from './errors';
import type { Definition } from './format';
import { compile, shownInstances, type CompiledModel, type CompiledNode } from './model';

interface RemovableRepeat {
  readonly buttonId: string;
  readonly max: number;
  /** The answer keys of each slot, in the same order in every slot (the k-th is the same question). */
  readonly slots: readonly (readonly string[])[];
  /** False when a slot holds a file question (a file is not an answer that can move). */
  readonly movable: boolean;
}

const cache = new WeakMap<CompiledModel, ReadonlyMap<string, RemovableRepeat>>();

function removableRepeats(model: CompiledModel): ReadonlyMap<string, RemovableRepeat> {
  const cached = cache.get(model);
  if (cached) return cached;
  const found = new Map<string, RemovableRepeat>();
  const slotKeys = new Map<string, string[][]>();
  for (const instance of model.instances) {
    if (!instance.slot) continue;
    const slots = slotKeys.get(instance.slot.repeatId) ?? [];
    slotKeys.set(instance.slot.repeatId, slots);
    (slots[instance.slot.index] ??= []).push(...instance.ownedKeys);
  }
  const visit = (node: CompiledNode): void => {
    if (node.type === 'repeat') {
      const addAnother = node.node.addAnother;
      const slots = slotKeys.get(node.node.id) ?? [];
      if (addAnother)
        found.set(node.node.id, {
          buttonId: addAnother.buttonId,
          max: node.max,
          slots,
          movable: slots.every(
            (keys) =>
              keys.length === slots[0]?.length &&
              keys.every((key) => model.keySpecs.get(key)?.type !== 'document'),
          ),
        });
      return;
    }
    for (const child of childrenOf(node)) visit(child);
  };
  for (const page of model.pages) page.children.forEach(visit);
  cache.set(model, found);
  return found;
}

function childrenOf(node: CompiledNode): readonly CompiledNode[] {
  switch (node.type) {
    case 'question':
    case 'exclusive':
      return (node.type === 'question' ? node.content : node.cases).flatMap((b) => b.children);
    case 'section':
    case 'buttonTrigger':
      return node.children;
    case 'tabs':
      return node.tabs.flatMap((branch) => branch.children);
    case 'checkboxTrigger':
      return [...node.before.children, ...node.after.children];
    default:
      return [];
  }
}

/** True when instance `number` (1-based) of the repeat may be removed: an added one, answers only. */
export function canRemoveInstance(
  definition: Definition,
  repeatId: string,
  number: number,
): boolean {
  const repeat = removableRepeats(compile(definition)).get(repeatId);
  return repeat !== undefined && repeat.movable && number >= 2 && number <= repeat.max;
}

/** True when instance `number` holds any answer (removing it then asks first). */
export function instanceAnswered(
  definition: Definition,
  repeatId: string,
  number: number,
  answers: Answers,
): boolean {
  const keys = removableRepeats(compile(definition)).get(repeatId)?.slots[number - 1] ?? [];
  return keys.some((key) => !isEmpty(readAnswer(answers, key)));
}

export interface Removal {
  /** The answers that change: later instances moved down one, the last emptied. */
  readonly answers: Readonly<Record<string, unknown>>;
  readonly buttonId: string;
  /** The add-another count to save: one fewer than were shown, never below 1. */
  readonly count: number;
}

/**
 * Removes instance `number` (1-based, at least 2) of the repeat `repeatId`, `shown` instances being
 * on screen. Throws a ConfigurationError for an instance that cannot be removed.
 */
export function removeInstance(
  definition: Definition,
  repeatId: string,
  number: number,
  answers: Answers,
  addAnother: Readonly<Record<string, number>>,
): Removal {
  const model = compile(definition);
  const repeat = removableRepeats(model).get(repeatId);
  if (!repeat || !canRemoveInstance(definition, repeatId, number))
    throw new ConfigurationError(`Instance ${number} of "${repeatId}" cannot be removed`);
  const { slots, buttonId, max } = repeat;
  const empty = (key: string) => (model.keySpecs.get(key)?.type === 'boolean' ? false : '');
  const changed: Record<string, unknown> = {};
  for (let index = number - 1; index < slots.length; index++) {
    const keys = slots[index] ?? [];
    const next = slots[index + 1];
    keys.forEach((key, k) => {
      const from = next?.[k];
      const value = from === undefined ? undefined : readAnswer(answers, from);
      const moved = isEmpty(value) ? empty(key) : value;
      const before = readAnswer(answers, key);
      if (!(isEmpty(before) && isEmpty(moved)) && before !== moved) changed[key] = moved;
    });
  }
  // Instances past the count stay on screen while they hold answers (SPEC 4.8), so count those too.
  let shown = shownInstances({ addAnother }, buttonId, max);
  slots.forEach((keys, index) => {
    if (keys.some((key) => !isEmpty(readAnswer(answers, key)))) shown = Math.max(shown, index + 1);
  });
  return { answers: changed, buttonId, count: Math.max(1, Math.min(shown, max) - 1) };
}
