/**
 * What only the print set writes (SPEC 2.9); the answer readers both sets share are in
 * renderers/answers.ts.
 */
import type { LookupCategory } from '../../runtime';
import { isChecked, textOf } from '../answers';

/** SPEC 2.9: checkboxes render as [X] or [ ]. */
export function checkboxMark(value: unknown): '[X]' | '[ ]' {
  return isChecked(value) ? '[X]' : '[ ]';
}

const SCHOOL_CATEGORIES: ReadonlySet<LookupCategory> = new Set(['hs_ceeb', 'college_ceeb']);

/** SPEC 2.9: a school renders as "<school name> (Ceeb: <code>)"; other lookups as their label. */
export function lookupText(category: LookupCategory, label: unknown, ceeb: unknown): string {
  const name = textOf(label);
  const code = textOf(ceeb);
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

/** A required question left empty on a copy printed before submit (D161). */
export const notAnsweredText = 'Not answered';
