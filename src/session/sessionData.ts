/**
 * What a session leaves in the tab, dropped in one place (SPEC 2.2, 8; D127). When a session begins
 * (a login) and when it ends, the query client's cache goes, so nothing one session read (a profile,
 * a last page, another applicant's answers) is read by the next. A deliberate logout also forgets the
 * answers kept for the tab; a session that ended under the applicant (a 401) keeps their date drafts
 * for their next login in the tab (they are per applicant, so no one else sees them).
 */
import type { QueryClient } from '@tanstack/react-query';
import { forgetDateDrafts } from './dateDrafts';
import { forgetAnonymousAnswers } from './anonymousAnswers';
import { sessionChanged } from './loggedIn';

/** A login: every read cached before it goes (mutations stay: the login's own is still settling). */
export function sessionBegan(queryClient: QueryClient): void {
  queryClient.removeQueries();
  // What reads the profile on every page (the header, the deadline banner) reads it afresh (D198).
  sessionChanged();
}

/**
 * `logout`: the applicant ended it (the button, inactivity, another tab's logout).
 * `invalid`: it ended under the applicant (a 401).
 */
export type SessionEnd = 'logout' | 'invalid';

/** Call before leaving for /login, so nothing on the way there reads the ended session's cache. */
export function sessionEnded(queryClient: QueryClient, end: SessionEnd): void {
  queryClient.clear();
  if (end === 'logout') {
    forgetAnonymousAnswers();
    forgetDateDrafts();
  }
  sessionChanged();
}
