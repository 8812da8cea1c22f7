import { ConfigurationError } from './errors';
import type { Definition, OptionEntry, OptionSource, YearsSpec } from './format';
import { BLANK } from './values';

export const BLANK_OPTION: OptionEntry = Object.freeze({ value: BLANK, label: BLANK });

/** SPEC 3.9: a generated list of years, headed by the blank entry. */
export function yearOptions(spec: YearsSpec, now: Date): OptionEntry[] {
  const current = now.getFullYear();
  const start =
    spec.start === undefined
      ? current
      : typeof spec.start === 'number'
        ? spec.start
        : current + spec.start.offset;
  const step = spec.direction === 'ascending' ? 1 : -1;
  const years: OptionEntry[] = [BLANK_OPTION];
  for (let i = 0; i < spec.length; i++) {
    const year = String(start + i * step);
    years.push({ value: year, label: year });
  }
  return years;
}

/** The entries of an option source: a named list of the definition, an inline list or generated years. */
export function resolveOptions(
  definition: Definition,
  source: OptionSource,
  now: Date,
): readonly OptionEntry[] {
  if (typeof source === 'string') {
    const list = Object.prototype.hasOwnProperty.call(definition.optionLists, source)
      ? definition.optionLists[source]
      : undefined;
    if (!list) throw new ConfigurationError(`Unknown option list "${source}"`);
    return list;
  }
  if (Array.isArray(source)) return source as readonly OptionEntry[];
  return yearOptions((source as { years: YearsSpec }).years, now);
}

/** The label of a chosen value (for `<key>_desc`), or '' when the value is not in the list. */
export function optionLabel(options: readonly OptionEntry[], value: unknown): string {
  if (typeof value !== 'string' || value === BLANK) return '';
  for (const option of options) if (option.value === value) return option.label;
  return '';
}

/** True when a list offers something to choose besides the blank entry. */
export function hasChoices(options: readonly OptionEntry[]): boolean {
  return options.some((option) => option.value !== BLANK);
}
