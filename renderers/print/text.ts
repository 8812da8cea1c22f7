/**
 * How the print set turns answers into text (SPEC 2.9). Pure functions, shared by the components and
 * by tests: an answer may be undefined, null, '--', a number or a boolean.
 */
import { BLANK, optionLabel, type LookupCategory, type OptionEntry } from '../../runtime';

/** The text of an answer: '' for empty or blank answers. */
export function answerText(value: unknown): string {
  if (typeof value === 'string') return value === BLANK ? '' : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

/** A check box answer: `true` or the string 'true' (answers saved as text) is checked. */
export function checkedOf(value: unknown): boolean {
  return value === true || value === 'true';
}

/** SPEC 2.9: checkboxes render as [X] or [ ]. */
export function checkboxMark(value: unknown): '[X]' | '[ ]' {
  return checkedOf(value) ? '[X]' : '[ ]';
}

/**
 * A choice shows its `_desc` label (SPEC 2.9), or the label of the option list when no description
 * was stored; a code the list does not know shows as itself rather than vanishing.
 */
export function choiceText(
  value: unknown,
  description: unknown,
  options: readonly OptionEntry[] | null,
): string {
  const desc = answerText(description);
  if (desc !== '') return desc;
  const code = answerText(value);
  if (code === '') return '';
  return optionLabel(options ?? [], code) || code;
}

/** Month label and year, e.g. "May 2026"; either part alone when only one was given. */
export function monthYearText(
  month: unknown,
  year: unknown,
  months: readonly OptionEntry[] | null,
): string {
  const monthText = choiceText(month, undefined, months);
  return [monthText, answerText(year)].filter((part) => part !== '').join(' ');
}

const SCHOOL_CATEGORIES: ReadonlySet<LookupCategory> = new Set(['hs_ceeb', 'college_ceeb']);

/** SPEC 2.9: a school renders as "<school name> (Ceeb: <code>)"; other lookups as their label. */
export function lookupText(category: LookupCategory, label: unknown, ceeb: unknown): string {
  const name = answerText(label);
  const code = answerText(ceeb);
  if (!SCHOOL_CATEGORIES.has(category) || name === '' || code === '') return name;
  return `${name} (Ceeb: ${code})`;
}

/**
 * SPEC 2.9's 'Document attached for "<question key>"', with the question's label where the spec puts
 * its key: staff and admissions read labels, not internal keys (docs/decisions/ D80).
 */
export function documentAttachedText(questionLabel: string): string {
  return `Document attached for "${questionLabel}"`;
}
