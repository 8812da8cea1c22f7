/**
 * The inactivity timeout (SPEC 2.7, 4.2, 9; SECURITY REQ-R-5). While the user is logged in, the
 * "Still working?" modal opens 60 seconds before the 15-minute idle point; at the idle point the
 * user is logged out. Activity is shared across tabs (react-idle-timer's crossTab + syncTimers).
 *
 * REQ-R-5: an in-flight request or a running submit (`busy`) counts as activity, so the prompt
 * is skipped and the idle point restarts the timer instead of logging out. `onLogout` is the
 * caller's: it flushes the autosave, clears the cache and goes to /login with INACTIVITY_MESSAGE
 * (contract/messages.ts) or the logout message for the "No" button.
 *
 * react-idle-timer notes that shape this file:
 * - onPrompt and onIdle run before the library updates its own state (prompted, idle), so an
 *   activate() made inside them is overwritten; the busy paths defer it to a microtask.
 * - onActive runs before the library stamps the new active mark, so getLastActiveTime() there is
 *   still the previous mark: the "15 minutes or more since the last active mark" rule of 4.2.
 * - The hook only mounts while `enabled`: a disabled instance would stay registered in the other
 *   tabs and keep them from ever being prompted.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useRef, useState } from 'react';
import { useIdleTimer } from 'react-idle-timer';
import chrome from './chrome.module.css';
import styles from './inactivity.module.css';

/** SPEC 9: the inactivity timeout, 15 minutes. */
export const INACTIVITY_TIMEOUT_MS = 900_000;
/** SPEC 9: the "Still working?" prompt opens this long before the idle point. */
export const INACTIVITY_PROMPT_MS = 60_000;
/** How often the timers of the open tabs are synchronised (SPEC 4.2: activity is shared). */
const SYNC_TIMERS_MS = 200;
/** The cross-tab channel of this timer. */
const CHANNEL_NAME = 'admission-applicant-inactivity';

/** SPEC 2.7: the Inactivity modal. */
export const inactivityText = {
  title: 'Still working?',
  body: 'You have been inactive for a little while. Would you like to stay logged in?',
  stay: 'Yes - Take me back to my application',
  leave: 'No - Please log me out',
} as const;

export interface InactivityGuardProps {
  /** The user is logged in (SPEC 4.2): the timer runs only then. */
  enabled: boolean;
  /** Called once on the idle point, on "No", or on coming back too late. */
  onLogout: () => void;
  /** True while a request is in flight or a submit runs (REQ-R-5): that counts as activity. */
  busy?: () => boolean;
  /** INACTIVITY_TIMEOUT_MS unless given (tests). */
  timeoutMs?: number;
  /** INACTIVITY_PROMPT_MS unless given (tests); must be less than timeoutMs. */
  promptMs?: number;
}

export function InactivityGuard({ enabled, ...props }: InactivityGuardProps) {
  if (!enabled) return null;
  return <IdleWatch {...props} />;
}

function IdleWatch({
  onLogout,
  busy,
  timeoutMs = INACTIVITY_TIMEOUT_MS,
  promptMs = INACTIVITY_PROMPT_MS,
}: Omit<InactivityGuardProps, 'enabled'>) {
  const [open, setOpen] = useState(false);
  const stayButton = useRef<HTMLButtonElement>(null);
  const loggedOut = useRef(false);
  const mounted = useRef(false);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const isBusy = () => busy?.() === true;

  const logout = () => {
    setOpen(false);
    if (loggedOut.current) return;
    loggedOut.current = true;
    onLogout();
  };

  /** Restarts the timer in every tab, after the library has finished its own callback. */
  const keepAlive = () => {
    queueMicrotask(() => {
      if (mounted.current && !loggedOut.current) timer.activate();
    });
  };

  const timer = useIdleTimer({
    name: CHANNEL_NAME,
    timeout: timeoutMs,
    promptBeforeIdle: promptMs,
    crossTab: true,
    syncTimers: SYNC_TIMERS_MS,
    onPrompt: () => {
      if (loggedOut.current) return;
      if (isBusy()) keepAlive();
      else setOpen(true);
    },
    onIdle: () => {
      setOpen(false);
      if (loggedOut.current) return;
      if (isBusy()) keepAlive();
      else logout();
    },
    onActive: () => {
      setOpen(false);
      // Still the previous mark here: the library stamps the new one after this callback.
      const lastActive = timer.getLastActiveTime();
      if (lastActive !== null && Date.now() - lastActive.getTime() >= timeoutMs && !isBusy()) {
        logout();
      }
    },
  });

  const stay = () => {
    setOpen(false);
    timer.activate();
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        // Escape counts as staying.
        if (!next) stay();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className={chrome.overlay} />
        <Dialog.Content
          role="alertdialog"
          className={styles.dialog}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            stayButton.current?.focus();
          }}
          // The user answers with a button (or Escape); a click on the backdrop does nothing.
          onPointerDownOutside={(event) => event.preventDefault()}
        >
          <div className={styles.header}>
            <Dialog.Title className={chrome.dialogTitle}>{inactivityText.title}</Dialog.Title>
          </div>
          <div className={styles.body}>
            <Dialog.Description className={styles.text}>{inactivityText.body}</Dialog.Description>
            <div className={styles.actions}>
              <button ref={stayButton} type="button" className={styles.stay} onClick={stay}>
                {inactivityText.stay}
              </button>
              <button type="button" className={styles.leave} onClick={logout}>
                {inactivityText.leave}
              </button>
            </div>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
