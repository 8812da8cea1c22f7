/**
 * Anonymous answers survive sign-up, confirmation and login (SPEC 1): they travel in navigation state
 * and are kept in sessionStorage too, except SSN, citizenship and felony answers, which stay in
 * memory only (SECURITY.md: never in web storage).
 */
import type { StudentAnswers } from './navigationState';

const STORAGE_KEY = 'admission.anonymousAnswers';
/** Answers never written to web storage. */
const SENSITIVE =
  /^(ssn|citizenship|citizenship_|alien_registration_number|birth_country|conviction|suspended)/;

let inMemory: StudentAnswers = {};

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE.test(key);
}

export function keepAnonymousAnswers(answers: StudentAnswers): void {
  inMemory = { ...answers };
  const storable = Object.fromEntries(
    Object.entries(answers).filter(([key]) => !isSensitiveKey(key)),
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
