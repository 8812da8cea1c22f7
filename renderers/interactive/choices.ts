/** Helpers for choice questions (select, radio, month/year): the blank entry and the `_desc` label. */
import {
  BLANK,
  BLANK_OPTION,
  optionLabel,
  type OptionEntry,
  type QuestionView,
} from '../../runtime';
import type { AnswerValue } from '../registry';

/** The option value to show as chosen: the answer when the list offers it, else the blank entry. */
export function chosenValue(options: readonly OptionEntry[], value: unknown): string {
  if (typeof value !== 'string' || value === '' || value === BLANK) return BLANK;
  return options.some((option) => option.value === value) ? value : BLANK;
}

/** The entries a user can pick (every entry but the blank one). */
export function realOptions(options: readonly OptionEntry[]): readonly OptionEntry[] {
  return options.filter((option) => option.value !== BLANK);
}

/** The stored form of a picked value: the blank entry stores ''. */
export function storedChoice(value: string): string {
  return value === BLANK ? '' : value;
}

/**
 * The answers a choice writes: the value under the question's key and, unless the description is
 * off, the chosen label under its `_desc` key (SPEC 3.3); the blank entry stores '' for both.
 */
export function choiceAnswers(
  view: QuestionView<'select' | 'radio'>,
  value: string,
): Record<string, AnswerValue> {
  const stored = storedChoice(value);
  const answers: Record<string, AnswerValue> = { [view.key]: stored };
  if (view.descKey) answers[view.descKey] = optionLabel(view.options, stored);
  return answers;
}

/** Accessible name of the blank entry, which shows as '--'. */
export const BLANK_OPTION_NAME = 'Not selected';

/** The list to draw in a `<select>`: always headed by the blank entry. */
export function withBlank(options: readonly OptionEntry[]): readonly OptionEntry[] {
  return options.some((option) => option.value === BLANK) ? options : [BLANK_OPTION, ...options];
}
