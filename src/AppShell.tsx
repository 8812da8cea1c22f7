/** The shared chrome of every screen (SPEC 1): header with the account popover, the page, the footer. */
import { useIsFetching, useIsMutating, useQueryClient } from '@tanstack/react-query';
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { applicationDefinition, institutionConfig } from './tenant/tenantData';
import { deriveWebStatus, INACTIVITY_MESSAGE, serverMessages } from '../contract';
import chrome from './chrome/chrome.module.css';
import type { AccountPopover } from './chrome/AccountPopover';
import { chromeText } from './chrome/chromeText';
import { DatedAlerts } from './chrome/DatedAlert';
import { Icon } from './chrome/Icon';
import { preloadWhenIdle } from './chrome/preloadWhenIdle';
import { Footer } from './chrome/Footer';
import { ToastProvider, useToast } from './chrome/toast';
import { useLogout } from './features/account/api/logout';
import { useProfile } from './features/application/api/profile';
import { anonymousAnswers } from './session/anonymousAnswers';
import { flushUnsaved, markDeliberateLogout } from './session/flush';
import { returnHere } from './session/returnTo';
import { announceLogout, onLogoutElsewhere } from './session/logoutBroadcast';
import { useLoggedIn } from './session/loggedIn';
import { sessionEnded } from './session/sessionData';
import styles from './AppShell.module.css';

// Loaded on demand: the popover (with its positioning library) and the idle timer (logged in only)
// are not needed to draw the first page. The popover's code loads when the applicant reaches for
// the Account button, or once the page is idle after its first control is usable (D198).
let loadedAccountPopover: typeof AccountPopover | undefined;
const loadAccountPopover = () =>
  import('./chrome/AccountPopover').then(
    (module) => (loadedAccountPopover = module.AccountPopover),
  );
const DeleteAccountDialog = lazy(() => import('./features/account/DeleteAccountDialog'));
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
        <AlertsUntilSubmitted />
        <main id="main" className={styles.content} tabIndex={-1}>
          <Outlet />
        </main>
        <Footer />
      </div>
    </ToastProvider>
  );
}

/** The dated alerts, told from the profile whether the application is submitted (SPEC 2.7). */
function AlertsUntilSubmitted() {
  // Re-read at a login in this tab, so a submitted application's banner goes without a reload.
  const profile = useProfile(useLoggedIn()).data;
  const submitted = profile ? deriveWebStatus(profile.web_status) === 'submitted' : false;
  return <DatedAlerts submitted={submitted} />;
}

function HeaderAccount() {
  const loggedIn = useLoggedIn();
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

  // D152: the account's data, as of the answers just typed (flushed first), or its deletion.
  const toast = useToast();
  const trigger = useRef<HTMLButtonElement>(null);
  const [deleting, setDeleting] = useState<boolean | null>(null);
  // Loaded when asked for: the account's words and calls stay off the first page (D29).
  const downloadData = () =>
    void import('./features/account/api/accountRights').then((rights) =>
      rights.downloadMyData(queryClient, toast),
    );
  const accountDeleted = (successMessage: string) => {
    // The server ended every session with the account: this tab and the others go to /login.
    markDeliberateLogout();
    sessionEnded(queryClient, 'logout');
    announceLogout({ successMessage });
    void navigate({ to: '/login', state: { successMessage } });
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

  // This button stands in for the popover's own until the applicant presses it; the popover then
  // replaces it, open (its code is usually here by then: preloaded when the page is idle).
  const [popoverShown, setPopoverShown] = useState(false);
  useEffect(() => preloadWhenIdle(loadAccountPopover), []);
  const Popover = popoverShown ? loadedAccountPopover : undefined;

  return (
    <>
      {!Popover ? (
        <button
          ref={trigger}
          type="button"
          className={chrome.accountTrigger}
          aria-haspopup="dialog"
          aria-expanded={false}
          onPointerEnter={() => void loadAccountPopover().catch(() => undefined)}
          onFocus={() => void loadAccountPopover().catch(() => undefined)}
          onClick={() =>
            void loadAccountPopover().then(
              () => setPopoverShown(true),
              () => undefined,
            )
          }
        >
          <Icon name="user" />
          {chromeText.account.trigger}
        </button>
      ) : (
        <Popover
          initiallyOpen
          loggedIn={loggedIn}
          username={profile.data?.username ?? null}
          studentAnswers={anonymousAnswers()}
          returnTo={returnHere(applicationDefinition, location)}
          onLogout={() => endSession({ successMessage: serverMessages.loggedOut })}
          onLogoutEverywhere={() =>
            endSession({ successMessage: serverMessages.loggedOutEverywhere }, true)
          }
          onDownloadData={downloadData}
          onDeleteAccount={() => setDeleting(true)}
          triggerRef={trigger}
        />
      )}
      {loggedIn && deleting !== null ? (
        <Suspense fallback={null}>
          <DeleteAccountDialog
            open={deleting}
            onOpenChange={setDeleting}
            submitted={Boolean(profile.data?.submission)}
            returnFocusTo={trigger}
            onDeleted={accountDeleted}
          />
        </Suspense>
      ) : null}
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
