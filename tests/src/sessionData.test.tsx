// @vitest-environment jsdom
/**
 * What a session leaves in the tab, dropped in one place (D127): the cache at a login and at every
 * end of a session, before /login is reached; the tab's answers at a deliberate logout only.
 */
import { QueryClient } from '@tanstack/react-query';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serverMessages, type ProfileResponse } from '../../contract';
import { INDICATOR_COOKIE } from '../../contract/firstLoad';
import { applicationDefinition } from '../../definitions';
import { AppShell } from '../../src/AppShell';
import { PROFILE_KEY } from '../../src/features/application/api/profile';
import {
  draftableKeys,
  keepDateDrafts,
  readDateDrafts,
} from '../../src/session/dateDrafts';
import { anonymousAnswers, keepAnonymousAnswers } from '../../src/session/anonymousAnswers';
import { sessionBegan, sessionEnded } from '../../src/session/sessionData';
import { installDomShims, mockFetch, renderWithRouter, userState } from './renderWithRouter';

installDomShims();

const ANN = 'ann@example.com';
const keys = draftableKeys(applicationDefinition);

const annProfile: ProfileResponse = {
  answer: { first_name: 'Ann' },
  document_answer: {},
  username: ANN,
  last_page: '/about',
  successful_login: [{ at: '2026-11-01T00:00:00Z' }],
  web_status: [{ web_status: 'started' }],
  version: 1,
};

/** What a logged-in tab holds: a cached profile, a pending save, a date draft, anonymous answers. */
function tabOfAnn() {
  const queryClient = new QueryClient();
  queryClient.setQueryData(PROFILE_KEY, annProfile);
  void queryClient
    .getMutationCache()
    .build(queryClient, { mutationFn: () => new Promise(() => undefined) })
    .execute({ first_name: 'Ann' });
  keepDateDrafts(ANN, { birth_date: '02/30/2008' }, keys);
  keepAnonymousAnswers({ city: 'Burlington' }, new Set());
  return queryClient;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  document.cookie = `${INDICATOR_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
});

describe('sessionData (D127)', () => {
  it('a login drops every cached read and lets its own mutation settle', () => {
    const queryClient = tabOfAnn();
    sessionBegan(queryClient);
    expect(queryClient.getQueryData(PROFILE_KEY)).toBeUndefined();
    expect(queryClient.getMutationCache().getAll()).toHaveLength(1);
  });

  it('a session ended under the applicant (401) drops the cache and keeps their date drafts', () => {
    const queryClient = tabOfAnn();
    sessionEnded(queryClient, 'invalid');
    expect(queryClient.getQueryData(PROFILE_KEY)).toBeUndefined();
    expect(queryClient.getMutationCache().getAll()).toEqual([]);
    expect(readDateDrafts(ANN, keys)).toEqual({ birth_date: '02/30/2008' });
    expect(anonymousAnswers()).toEqual({ city: 'Burlington' });
  });

  it('a deliberate logout drops the cache and forgets the date drafts and anonymous answers', () => {
    const queryClient = tabOfAnn();
    sessionEnded(queryClient, 'logout');
    expect(queryClient.getQueryData(PROFILE_KEY)).toBeUndefined();
    expect(queryClient.getMutationCache().getAll()).toEqual([]);
    expect(readDateDrafts(ANN, keys)).toEqual({});
    expect(anonymousAnswers()).toEqual({});
  });
});

describe('Log Out in the header (D127)', () => {
  it('drops the cache and the drafts before it leaves for /login, and /login shows the logout message', async () => {
    document.cookie = `${INDICATOR_COOKIE}=1; path=/`;
    const { calls } = mockFetch((call) => {
      if (call.path.startsWith('/api/logout')) {
        // The server's answer ends the indicator cookie.
        document.cookie = `${INDICATOR_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
        return { body: { message: serverMessages.loggedOut } };
      }
      if (call.path.startsWith('/api/profile')) return { body: annProfile };
      return { status: 401, body: { message: 'no session' } };
    });
    const { router, queryClient } = renderWithRouter({ path: '/about', component: AppShell });
    const user = userEvent.setup();
    await waitFor(() => expect(queryClient.getQueryData(PROFILE_KEY)).toEqual(annProfile));
    keepDateDrafts(ANN, { birth_date: '02/30/2008' }, keys);

    const atNavigation: unknown[] = [];
    const unsubscribe = router.subscribe('onBeforeNavigate', (event) => {
      if (event.toLocation.pathname === '/login')
        atNavigation.push({
          profile: queryClient.getQueryData(PROFILE_KEY),
          drafts: readDateDrafts(ANN, keys),
        });
    });
    // The popover loads on demand: preloaded, so the wait is for its render only.
    await import('../../src/chrome/AccountPopover');
    await user.click(await screen.findByRole('button', { name: 'Account' }, { timeout: 10_000 }));
    const popover = await screen.findByRole('dialog', { name: 'Account' });
    await user.click(within(popover).getByRole('button', { name: 'Log Out' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    unsubscribe();
    expect(atNavigation).toEqual([{ profile: undefined, drafts: {} }]);
    expect(userState(router.state.location.state)).toEqual({
      successMessage: serverMessages.loggedOut,
    });
    expect(calls.filter((call) => call.path.startsWith('/api/logout'))).toHaveLength(1);
  });
});
