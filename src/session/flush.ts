/**
 * Unsaved answers are flushed before a logout (SECURITY.md REQ-R-5): the application registers how to
 * save them, and the logout paths wait for it.
 */
import type { StudentAnswers } from './navigationState';

let flusher: (() => Promise<unknown>) | null = null;

export function registerFlush(flush: (() => Promise<unknown>) | null): void {
  flusher = flush;
}

/** Saves what is unsaved; a failure does not block the logout. */
export async function flushUnsaved(): Promise<void> {
  try {
    await flusher?.();
  } catch {
    // The session may already be gone; nothing more can be saved.
  }
}

/**
 * SECURITY.md REQ-R-4: what is not yet saved when the session ends under the applicant (a 401) stays
 * in memory and travels to /login, to be saved after logging in again as the same applicant.
 */
export interface Unsaved {
  readonly answers: StudentAnswers;
  readonly username: string;
}

let unsavedSource: (() => Unsaved | null) | null = null;

export function registerUnsaved(source: (() => Unsaved | null) | null): void {
  unsavedSource = source;
}

export function unsavedAnswers(): Unsaved | null {
  const unsaved = unsavedSource?.() ?? null;
  return unsaved && Object.keys(unsaved.answers).length > 0 ? unsaved : null;
}

/**
 * A deliberate logout (the button, inactivity, another tab): for a few seconds afterwards, 401s from
 * requests that were still on their way are expected and must not replace the logout's message with
 * the session-invalid one.
 */
const LOGOUT_QUIET_MS = 10_000;
let loggedOutAt = -Infinity;

export function markDeliberateLogout(): void {
  loggedOutAt = Date.now();
}

export function justLoggedOut(): boolean {
  return Date.now() - loggedOutAt < LOGOUT_QUIET_MS;
}
