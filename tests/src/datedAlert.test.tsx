// @vitest-environment jsdom
/**
 * SPEC 2.7: a dated alert (the deadline banner) is not shown to an applicant whose application is
 * submitted. The banner reads the profile; a login in the same tab must not leave it reading the
 * session before the login (none), nor a submit leave it reading the profile before the submit.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProfileResponse } from '../../contract';
import { INDICATOR_COOKIE } from '../../contract/firstLoad';
import { seedInstitutionFile } from '../../definitions/seed';
import { createQueryClient } from '../../src/api/queryClient';
import { AppShell } from '../../src/AppShell';
import { ToastProvider } from '../../src/chrome/toast';
import { LoginCard } from '../../src/features/account/LoginCard';
import { PROFILE_KEY, profileQuery } from '../../src/features/application/api/profile';
import { installDomShims, mockFetch } from './renderWithRouter';

installDomShims();

const ANN = 'ann@example.com';
const deadline = seedInstitutionFile.alerts[0]!;
/** A moment inside the deadline alert's window. */
const DURING_ALERT = new Date(Date.parse(deadline.start) + 24 * 3600_000);

function profileOf(webStatus: 'started' | 'submitted'): ProfileResponse {
  return {
    answer: { first_name: 'Ann' },
    document_answer: {},
    username: ANN,
    last_page: '/completion',
    successful_login: [{ at: '2026-11-01T00:00:00Z' }],
    // SPEC 4.1: the status is the count of distinct values recorded.
    web_status:
      webStatus === 'submitted'
        ? [{ web_status: 'started' }, { web_status: 'validating' }, { web_status: 'submitted' }]
        : [{ web_status: 'started' }],
    version: 1,
  };
}

const setCookie = () => (document.cookie = `${INDICATOR_COOKIE}=1; path=/`);
const clearCookie = () =>
  (document.cookie = `${INDICATOR_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`);

/**
 * The app's shell with /login and a page that, like the application's routes, loads the profile
 * through the router before it shows.
 */
function renderShell(initialPath: string) {
  const queryClient = createQueryClient(vi.fn());
  const rootRoute = createRootRoute({ component: AppShell });
  const login = createRoute({
    getParentRoute: () => rootRoute,
    path: '/login',
    component: LoginCard,
  });
  const page = () => <h1>Completion</h1>;
  const pages = ['/about', '/completion'].map((path) =>
    createRoute({
      getParentRoute: () => rootRoute,
      path,
      loader: () => queryClient.fetchQuery(profileQuery),
      component: page,
    }),
  );
  const router = createRouter({
    routeTree: rootRoute.addChildren([login, ...pages]),
    history: createMemoryHistory({ initialEntries: [initialPath] }),
  });
  render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { router, queryClient };
}

const banner = () => screen.queryByText(deadline.text);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: DURING_ALERT });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  clearCookie();
});

describe('the deadline banner and the profile it reads (SPEC 2.7)', () => {
  it('shows to a visitor who is not logged in', async () => {
    mockFetch(() => ({ status: 401, body: { message: 'no session' } }));
    renderShell('/login');
    expect(await screen.findByText(deadline.text)).toBeTruthy();
  });

  /** /login in this tab, then a login that reaches the page loading the profile. */
  async function logInHere(status: () => 'started' | 'submitted') {
    mockFetch((call) => {
      if (call.path.startsWith('/public/login')) {
        setCookie();
        return { body: { message: 'Welcome back.' } };
      }
      if (call.path.startsWith('/api/profile')) return { body: profileOf(status()) };
      return { status: 401, body: { message: 'no session' } };
    });
    const shell = renderShell('/login');
    expect(await screen.findByText(deadline.text)).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/email address/i), ANN);
    await user.type(screen.getByLabelText(/^password/i), 'a good password 1');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(shell.router.state.location.pathname).not.toBe('/login'));
    await screen.findByRole('heading', { name: 'Completion' });
    return shell;
  }

  it('goes once a login in this tab reaches a submitted application, without a reload', async () => {
    await logInHere(() => 'submitted');
    await waitFor(() => expect(banner()).toBeNull());
  });

  it('goes at a submit after a login in this tab (the profile the submit refetches)', async () => {
    let status: 'started' | 'submitted' = 'started';
    const { queryClient } = await logInHere(() => status);
    await waitFor(() => expect(queryClient.getQueryData(PROFILE_KEY)).toBeDefined());
    expect(banner()).toBeTruthy();
    status = 'submitted';
    // What submitApplication does once the application is submitted.
    await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    await waitFor(() => expect(banner()).toBeNull());
  });

  it('goes when the profile of a logged-in tab is refetched after a submit', async () => {
    setCookie();
    let status: 'started' | 'submitted' = 'started';
    mockFetch((call) => {
      if (call.path.startsWith('/api/profile')) return { body: profileOf(status) };
      return { status: 401, body: { message: 'no session' } };
    });
    const { queryClient } = renderShell('/about');
    await screen.findByRole('heading', { name: 'Completion' });
    expect(banner()).toBeTruthy();
    status = 'submitted';
    await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    await waitFor(() => expect(banner()).toBeNull());
  });
});
