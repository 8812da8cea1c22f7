/**
 * Which errors the questions show (docs/decisions/ D77, revising D25): every error while the status
 * is validating (SPEC 2.3, 4.1); before the first submit only those the applicant has earned: the
 * questions of the page being left or saved, and those already shown (until fixed). A page the
 * applicant has not reached is never opened covered in "required" messages. A question left with an
 * answer shows its error at once: a format mistake is told when it is made (D149); "required" still
 * waits, since an empty question left is not a mistake yet.
 */
import type { WebStatus } from '#contract';
import { pageOfKey, type Definition } from '#runtime';

type Errors = Readonly<Record<string, readonly string[]>>;

export function errorsToShow(
  definition: Definition,
  found: Errors,
  options: {
    readonly webStatus: WebStatus | null;
    /** The errors shown now. */
    readonly shown: Errors;
    /** The page being left or saved, whose questions' errors now show. */
    readonly pageId?: string;
    /** The question just left, when it holds an answer: its (format) error now shows. */
    readonly left?: string;
  },
): Errors {
  if (options.webStatus === 'validating') return found;
  const { pageId, shown, left } = options;
  return Object.fromEntries(
    Object.entries(found).filter(
      ([key]) =>
        Object.prototype.hasOwnProperty.call(shown, key) ||
        key === left ||
        (pageId !== undefined && pageOfKey(definition, key)?.id === pageId),
    ),
  );
}
