/**
 * SPEC 2.2, 8 and SECURITY.md 7.14: what the app does when a call answers 401. However many calls
 * fail at once (a storm of 401s when a session ends under several requests), the cache is cleared and
 * /login is reached once; unsaved answers travel there in memory (REQ-R-4). A 401 that arrives just
 * after a deliberate logout changes nothing (the logout's own message stays).
 */
import { SESSION_INVALID_MESSAGE } from '../../contract';
import type { StudentAnswers } from './navigationState';
import type { Unsaved } from './flush';

export interface SessionEndedDeps {
  /** Drops what the ended session cached (`sessionEnded(queryClient, 'invalid')`), before /login. */
  readonly clear: () => void;
  /** Goes to /login with this navigation state; settles when the navigation has happened. */
  readonly toLogin: (state: {
    errorMessage: string;
    studentAnswers?: StudentAnswers;
    unsavedFor?: string;
  }) => Promise<unknown>;
  readonly unsaved: () => Unsaved | null;
  readonly justLoggedOut: () => boolean;
}

/** The app's one 401 handler: call it for every 401; it acts once per ended session. */
export function sessionEndedHandler(deps: SessionEndedDeps): () => void {
  let redirecting = false;
  return () => {
    if (redirecting || deps.justLoggedOut()) return;
    redirecting = true;
    const unsaved = deps.unsaved();
    deps.clear();
    void deps
      .toLogin({
        errorMessage: SESSION_INVALID_MESSAGE,
        ...(unsaved ? { studentAnswers: unsaved.answers, unsavedFor: unsaved.username } : {}),
      })
      .finally(() => {
        redirecting = false;
      });
  };
}
