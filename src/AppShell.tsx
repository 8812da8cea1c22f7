/** The shared chrome of every screen (SPEC 1): header with the account popover, the page, the footer. */
import { useIsFetching, useIsMutating, useQueryClient } from '@tanstack/react-query';
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { applicationDefinition, institutionConfig } from './tenant/tenantData';
import { INACTIVITY_MESSAGE, serverMessages } from '../contract';
import { DatedAlerts } from './chrome/DatedAlert';
import { Footer } from './chrome/Footer';
import { ToastProvider } from './chrome/toast';
import { useLogout } from './features/account/api/logout';
import { useProfile } from './features/application/api/profile';
import { anonymousAnswers } from './session/anonymousAnswers';
import { hasIndicatorCookie } from './session/cookies';
import { flushUnsaved, markDeliberateLogout } from './session/flush';
import { returnHere } from './session/returnTo';
import { announceLogout, onLogoutElsewhere } from './session/logoutBroadcast';
import { sessionEnded } from './session/sessionData';
import styles from './AppShell.module.css';

// Loaded on demand: the popover (with its positioning library) and the idle timer (logged in only)
// are not needed to draw the first page.
const AccountPopover = lazy(() =>
  import('./chrome/AccountPopover').then((m) => ({ default: m.AccountPopover })),
);
const InactivityGuard = lazy(() =>
  import('./chrome/InactivityGuard').then((m) => ({ default: m.InactivityGuard })),
);

export function AppShell() {
  return (
    <ToastProvider>
      <div className={styles.page}>
        <a className={styles.skip} href="#main">
          Skip to the application
        </a>
        <header className={styles.header}>
          <p className={styles.brand}>{institutionConfig.application_title}</p>
          <HeaderAccount />
        </header>
        <DatedAlerts />
        <main id="main" className={styles.content} tabIndex={-1}>
          <Outlet />
        </main>
        <Footer />
      </div>
    </ToastProvider>
  );
}

function HeaderAccount() {
  const loggedIn = hasIndicatorCookie();
  const profile = useProfile(loggedIn);
  const logout = useLogout();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const inFlight = useIsFetching() + useIsMutating();
  const busy = useRef(false);
  busy.current = inFlight > 0;
  const location = useRouterState({ select: (s) => s.location });

  const endSession = (
    state: { successMessage?: string; errorMessage?: string },
    everywhere = false,
  ) => {
    void flushUnsaved().then(() => {
      markDeliberateLogout();
      logout.mutate(
        { everywhere },
        {
          onSettled: () => {
            // The cache goes before /login is reached (D127); a query of the form that fetches again
            // meanwhile gets a 401 that the deliberate logout keeps from replacing this message.
            sessionEnded(queryClient, 'logout');
            announceLogout(state);
            void navigate({ to: '/login', state });
          },
        },
      );
    });
  };

  // Another tab logged out (the server session is gone for every tab): follow it to /login.
  useEffect(() => {
    if (!loggedIn) return undefined;
    return onLogoutElsewhere((notice) => {
      markDeliberateLogout();
      sessionEnded(queryClient, 'logout');
      void navigate({ to: '/login', state: notice });
    });
  }, [loggedIn, queryClient, navigate]);

  return (
    <>
      <Suspense fallback={<span className={styles.accountPlaceholder}>Account</span>}>
        <AccountPopover
          loggedIn={loggedIn}
          username={profile.data?.username ?? null}
          studentAnswers={anonymousAnswers()}
          returnTo={returnHere(applicationDefinition, location)}
          onLogout={() => endSession({ successMessage: serverMessages.loggedOut })}
          onLogoutEverywhere={() =>
            endSession({ successMessage: serverMessages.loggedOutEverywhere }, true)
          }
        />
      </Suspense>
      {loggedIn ? (
        <Suspense fallback={null}>
          <InactivityGuard
            enabled={loggedIn}
            busy={() => busy.current}
            onLogout={() => endSession({ errorMessage: INACTIVITY_MESSAGE })}
          />
        </Suspense>
      ) : null}
    </>
  );
}
