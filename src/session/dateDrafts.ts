/**
 * A date typed that is not one yet (02/30/2008, 03/1) is an answer in the form but is never saved
 * (`storedAnswer`, SPEC 5.7), so a reload would lose it. It is kept for the tab in sessionStorage,
 * under the applicant's own key, until it becomes a date or is emptied, and forgotten at logout
 * (D121). It is never sent anywhere; what is read back must look like the mask's own text and belong
 * to a date question that is not sensitive (SECURITY.md: sensitive answers never in web storage).
 * It sits with the tab's other session data, so the logout that forgets it (`sessionData.ts`) needs
 * no feature.
 */
import { isIsoDate, keysOfKind, sensitiveKeys, type Definition } from '#runtime';
import type { AnswerValue } from '#renderers/registry.ts';

const PREFIX = 'admission.dateDrafts.';
/** What the date field's mask can show: digits and slashes, MM/DD/YYYY at most. */
const MASK_TEXT = /^[\d/]{1,10}$/;

type Drafts = Record<string, string>;

/** The keys whose drafts may be kept: date questions that are not sensitive. */
export function draftableKeys(definition: Definition): ReadonlySet<string> {
  const sensitive = sensitiveKeys(definition);
  return new Set(keysOfKind(definition, 'date').filter((key) => !sensitive.has(key)));
}

const isDraft = (value: unknown): value is string =>
  typeof value === 'string' && MASK_TEXT.test(value) && !isIsoDate(value);

/** The drafts among these answers. */
function draftsOf(answers: Readonly<Record<string, unknown>>, keys: ReadonlySet<string>): Drafts {
  const drafts: Drafts = {};
  for (const key of keys) {
    const value = answers[key];
    if (isDraft(value)) drafts[key] = value;
  }
  return drafts;
}

/** The drafts kept for this applicant in this tab (none when storage is unavailable). */
export function readDateDrafts(username: string, keys: ReadonlySet<string>): Drafts {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(PREFIX + username) ?? '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? draftsOf(parsed as Record<string, unknown>, keys)
      : {};
  } catch {
    return {};
  }
}

/** Keeps the drafts among the current answers; none left removes the entry. */
export function keepDateDrafts(
  username: string,
  answers: Readonly<Record<string, AnswerValue>>,
  keys: ReadonlySet<string>,
): void {
  const drafts = draftsOf(answers, keys);
  try {
    if (Object.keys(drafts).length === 0) sessionStorage.removeItem(PREFIX + username);
    else sessionStorage.setItem(PREFIX + username, JSON.stringify(drafts));
  } catch {
    // Storage may be full or disabled: the draft still lives in the form until a reload.
  }
}

/** Logout: every applicant's drafts in this tab go. */
export function forgetDateDrafts(): void {
  try {
    for (const key of Object.keys(sessionStorage))
      if (key.startsWith(PREFIX)) sessionStorage.removeItem(key);
  } catch {
    // nothing to forget
  }
}
