/**
 * What the app and the server ask of a definition, answered from its compiled model, which stays
 * internal to the runtime (D175): a question by key, the keys of a kind, each key's role in the data
 * model. Answers are memoised per definition object, like the model itself.
 */
import type { Definition, Question, QuestionKind } from './format';
import { compile, type FieldInstance, type ViewState } from './model';
import type { Answers } from './values';

/** The question that owns an answer key (a month/year's year key included), if any. */
export function questionOf(definition: Definition, key: string): Question | undefined {
  return compile(definition).byKey.get(key)?.[0]?.question;
}

/** The label the applicant sees for a key, the key itself when no question owns it. */
export function labelOf(definition: Definition, key: string): string {
  return questionOf(definition, key)?.label ?? key;
}

/** SPEC 5.7: text areas save when the applicant leaves them. */
export function savesOnBlur(definition: Definition, key: string): boolean {
  return questionOf(definition, key)?.kind === 'textarea';
}

const byKind = new WeakMap<Definition, Map<QuestionKind, readonly FieldInstance[]>>();

function instancesOfKind(definition: Definition, kind: QuestionKind): readonly FieldInstance[] {
  let kinds = byKind.get(definition);
  if (!kinds) byKind.set(definition, (kinds = new Map()));
  let found = kinds.get(kind);
  if (!found) {
    found = compile(definition).instances.filter((instance) => instance.question.kind === kind);
    kinds.set(kind, found);
  }
  return found;
}

/** The answer key of every question of this kind, in definition order (every slot expanded). */
export function keysOfKind(definition: Definition, kind: QuestionKind): string[] {
  return instancesOfKind(definition, kind).map((instance) => instance.key);
}

/** The keys of the questions of this kind shown under these answers and this view state. */
export function shownKeysOfKind(
  definition: Definition,
  kind: QuestionKind,
  answers: Answers,
  state: ViewState,
): string[] {
  const shown: string[] = [];
  outer: for (const instance of instancesOfKind(definition, kind)) {
    for (let guard = instance.guard; guard !== null; guard = guard.parent)
      if (!guard.holds(answers, state)) continue outer;
    shown.push(instance.key);
  }
  return shown;
}

/** One key of the data model (SPEC 5.8) and what it holds. */
export interface DataModelKey {
  readonly key: string;
  /** A question's answer, the label of a coded answer (`_desc`), or a month/year's year. */
  readonly role: 'answer' | 'label' | 'year';
  /** The question that owns the key (undefined for a key no question shows). */
  readonly question: Question | undefined;
  /** True for a key of a repeated slot (an add-another instance or a prefixed copy). */
  readonly repeated: boolean;
  /** For a coded answer, the key that holds its label (`_desc`), else null. */
  readonly labelKey: string | null;
}

const dataModels = new WeakMap<Definition, readonly DataModelKey[]>();

/** Every key of the data model in definition order, with its role and owner. */
export function dataModelEntries(definition: Definition): readonly DataModelKey[] {
  let entries = dataModels.get(definition);
  if (entries) return entries;
  const model = compile(definition);
  const descOf = new Map<string, FieldInstance>();
  const yearOf = new Map<string, FieldInstance>();
  for (const instance of model.instances) {
    if (instance.descKey) descOf.set(instance.descKey, instance);
    if (instance.yearKey) yearOf.set(instance.yearKey, instance);
  }
  entries = [...model.keySpecs.keys()].map((key): DataModelKey => {
    const described = descOf.get(key);
    const year = yearOf.get(key);
    const instance = described ?? year ?? model.byKey.get(key)?.[0];
    return {
      key,
      role: described ? 'label' : year ? 'year' : 'answer',
      question: instance?.question,
      repeated: Boolean(instance?.slot),
      labelKey: described ? null : (instance?.descKey ?? null),
    };
  });
  dataModels.set(definition, entries);
  return entries;
}
