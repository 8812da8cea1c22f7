import { compile, type FieldInstance } from './model';
import type { Definition, OptionEntry } from './format';
import { optionLabel } from './options';
import { isEmpty, readAnswer, type Answers } from './values';

/**
 * Coded answers (select, radio, conditional select, the month and year of a month/year question)
 * hold one of the values their definition offers for the answers they sit in, and a choice's
 * `<key>_desc` is the definition's label of its value (D74). The client writes choices from
 * the same options (renderers/interactive/choices.ts), so a save it makes always passes; the
 * server checks and labels every save with this function.
 */
export interface CodedAnswers {
  /** The incoming answers with every `_desc` they touch set from the definition. */
  readonly answers: Record<string, unknown>;
  /** Keys whose value is not one of their options. */
  readonly problems: readonly string[];
}

const has = (answers: Answers, key: string) => Object.prototype.hasOwnProperty.call(answers, key);

const offers = (options: readonly OptionEntry[], value: unknown) =>
  isEmpty(value) || options.some((option) => option.value === value);

/** Whether `incoming` writes any coded key or label (the server then reads the stored answers). */
export function touchesCodedAnswers(definition: Definition, incoming: Answers): boolean {
  return codedInstances(definition).some((instance) =>
    ownKeys(instance).some((key) => has(incoming, key)),
  );
}

/**
 * Checks and labels the coded answers of `incoming`, a save over the `stored` answers: options that
 * depend on other answers (a conditional select's country) are read from the two merged.
 */
export function codedAnswers(
  definition: Definition,
  incoming: Answers,
  stored: Answers,
  now: Date,
): CodedAnswers {
  const answers: Record<string, unknown> = { ...incoming };
  const merged: Answers = { ...stored, ...incoming };
  const problems = new Set<string>();
  for (const instance of codedInstances(definition)) {
    const { key, descKey, yearKey } = instance;
    const options = instance.options?.(merged, now) ?? [];
    if (instance.monthOptions) {
      if (has(incoming, key) && !offers(instance.monthOptions, readAnswer(incoming, key)))
        problems.add(key);
      if (yearKey && has(incoming, yearKey) && !offers(options, readAnswer(incoming, yearKey)))
        problems.add(yearKey);
      continue;
    }
    if (has(incoming, key) && !offers(options, readAnswer(incoming, key))) problems.add(key);
    // The label follows the value (incoming or stored), whatever label the body carried.
    if (descKey && (has(incoming, key) || has(incoming, descKey)))
      answers[descKey] = optionLabel(options, readAnswer(merged, key));
  }
  return { answers, problems: [...problems] };
}

const ownKeys = (instance: FieldInstance): string[] =>
  [instance.key, instance.descKey, instance.yearKey].filter((key): key is string => key !== null);

const coded = new WeakMap<object, readonly FieldInstance[]>();

/** The question instances whose answers are codes: those with options. */
function codedInstances(definition: Definition): readonly FieldInstance[] {
  const model = compile(definition);
  let instances = coded.get(model);
  if (!instances) {
    instances = model.instances.filter(
      (instance) => instance.options !== null || instance.monthOptions !== null,
    );
    coded.set(model, instances);
  }
  return instances;
}
