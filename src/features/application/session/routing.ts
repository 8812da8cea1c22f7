/**
 * The application routes' navigation rules, run by the router before any page shows (SPEC 2.1,
 * 2.2): the temporary-answers link, loading what a logged-in applicant's form needs, the session
 * (created on entering, stopped on leaving), the resume to the last page (once, when the session
 * starts after an arrival without a page, so by construction before any page change), and the
 * completion guard.
 */
import { redirect, type ParsedLocation } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { notices } from '#contract/words.ts';
import { applicationDefinition } from '#src/tenant/tenantData.ts';
import { ServerError, UnauthorizedError } from '#src/api/client.ts';
import { hasIndicatorCookie } from '#src/session/cookies.ts';
import type { StudentAnswers } from '#src/session/navigationState.ts';
import { addAnotherQuery } from '../api/addAnother';
import { profileQuery } from '../api/profile';
import { tabsQuery } from '../api/tabs';
import { tmpAnswersRequest } from '../api/tmpAnswers';
import type { Navigate } from './actions';
import { ApplicationSession } from './ApplicationSession';
import type { Entry } from './arrival';
import { browserPage } from './page';

/** Where the router keeps the application's session between navigations. */
export interface ApplicationHolder {
  session: ApplicationSession | null;
  /** A failed temporary-answers link, shown once the session exists. */
  notice: string | null;
}

export interface ApplicationRouterContext {
  readonly queryClient: QueryClient;
  readonly application: ApplicationHolder;
  readonly navigate: Navigate;
}

const isPage = (path: string) => applicationDefinition.pages.some((page) => page.path === path);

/** The history entry of `location`, as the session tells entries apart. */
const entryOf = (location: ParsedLocation): Entry => ({
  key: location.state.__TSR_key ?? null,
  successMessage: location.state.successMessage,
});

/** SPEC 2.1: ?token= loads an anonymous visitor's answers; the token then leaves the address. */
async function takeToken(context: ApplicationRouterContext, location: ParsedLocation) {
  const { token, ...search } = location.search as { token?: unknown };
  if (typeof token !== 'string') return;
  let answers: StudentAnswers = {};
  try {
    answers = (await tmpAnswersRequest(token)).answers as StudentAnswers;
  } catch (error) {
    // A bad or expired link is shown as a message, not as a broken page.
    context.application.notice = error instanceof ServerError ? error.message : String(error);
  }
  const carried = location.state.studentAnswers ?? {};
  throw redirect({
    to: location.pathname,
    search,
    replace: true,
    state: { ...location.state, studentAnswers: { ...answers, ...carried } },
  });
}

async function startSession(context: ApplicationRouterContext, location: ParsedLocation) {
  const loggedIn = hasIndicatorCookie();
  if (!loggedIn) await takeToken(context, location);
  const { queryClient } = context;
  const [profile, savedCounts, savedTabs] = loggedIn
    ? await Promise.all([
        queryClient.fetchQuery(profileQuery),
        queryClient.fetchQuery(addAnotherQuery),
        queryClient.fetchQuery(tabsQuery),
      ])
    : [null, {}, {}];
  const session = new ApplicationSession(
    {
      definition: applicationDefinition,
      loggedIn,
      profile,
      savedCounts,
      savedTabs,
      carried: location.state.studentAnswers ?? {},
    },
    { queryClient, navigate: context.navigate, page: browserPage },
  );
  context.application.session = session;
  const { notice } = context.application;
  if (notice !== null) {
    context.application.notice = null;
    session.toast({ title: notices.errorTitle, description: notice, severity: 'error' });
  }
  // Shown before the resume below moves on (that navigation carries no state).
  session.showSuccessMessage(entryOf(location));
  if (location.state.resume === true) resume(session, location);
}

/**
 * SPEC 2.2 resume, once, before any page change, and only for an arrival that asked for no page
 * (after login, at `/`): an address of a page, typed, bookmarked, reloaded or opened in a second
 * tab, is where the applicant goes, whatever another tab recorded last (D113). The flag is used up
 * here (the entry is replaced without it), so reloading the page landed on stays there.
 */
function resume(session: ApplicationSession, location: ParsedLocation): never {
  const last = session.profile?.last_page;
  if (session.loggedIn && last && last !== location.pathname && isPage(last))
    throw redirect({ to: last, replace: true });
  // Answers brought along stay with the entry (a reload carries them again); the message was shown.
  const { studentAnswers } = location.state;
  throw redirect({
    to: location.pathname,
    search: location.search,
    replace: true,
    state: studentAnswers ? { studentAnswers } : {},
  });
}

/** The application route's beforeLoad: every navigation into or within the application. */
export async function beforeApplicationLoad({
  context,
  location,
}: {
  context: ApplicationRouterContext;
  location: ParsedLocation;
}): Promise<{ session: ApplicationSession }> {
  if (!context.application.session) {
    try {
      await startSession(context, location);
    } catch (error) {
      // A 401 is handled centrally: it goes to /login, and this navigation never completes.
      if (error instanceof UnauthorizedError) await new Promise(() => undefined);
      throw error;
    }
  }
  const session = context.application.session as ApplicationSession;
  // SPEC 2.2 completion guard.
  const submitted = session.webStatus === 'submitted';
  if (submitted && location.pathname !== '/completion')
    throw redirect({ to: '/completion', replace: true });
  if (!submitted && location.pathname === '/completion')
    throw redirect({ to: applicationDefinition.defaultRoute, replace: true });
  session.arrive(location.pathname, entryOf(location));
  return { session };
}

/** Leaving the application's routes ends the session (a new one starts on coming back). */
export function leaveApplication(context: ApplicationRouterContext): void {
  context.application.session?.stop();
  context.application.session = null;
}
