/**
 * Anonymous answers survive sign-up, confirmation and login (SPEC 1): they travel in navigation state
 * and are kept in sessionStorage too, except the answers the definition marks sensitive (SSN,
 * citizenship, conduct: the runtime's `sensitiveKeys`), which stay in memory only (SECURITY.md: never
 * in web storage). The caller passes those keys, so this module (in the first page's chunk) does not
 * load the definition.
 */
import type { StudentAnswers } from './navigationState';

const STORAGE_KEY = 'admission.anonymousAnswers';

let inMemory: StudentAnswers = {};

export function keepAnonymousAnswers(
  answers: StudentAnswers,
  sensitive: ReadonlySet<string>,
): void {
  inMemory = { ...answers };
  const storable = Object.fromEntries(
    Object.entries(answers).filter(([key]) => !sensitive.has(key)),
  );
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(storable));
  } catch {
    // Storage may be full or disabled; memory still holds the answers.
  }
}

export function anonymousAnswers(): StudentAnswers {
  let stored: StudentAnswers = {};
  try {
    const text = sessionStorage.getItem(STORAGE_KEY);
    if (text) stored = JSON.parse(text) as StudentAnswers;
  } catch {
    stored = {};
  }
  return { ...stored, ...inMemory };
}

export function forgetAnonymousAnswers(): void {
  inMemory = {};
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing to forget
  }
}

/** True when any answer holds something (SPEC 2.3: anonymous navigation goes to /signup then). */
export function hasAnyAnswer(answers: StudentAnswers): boolean {
  return Object.values(answers).some(
    (value) => value !== '' && value !== null && value !== false && value !== '--',
  );
}
