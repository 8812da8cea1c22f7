/**
 * SPEC 2.6: the account popover. Logged in: the username, "Log Out" and "Log out of all devices"
 * (D142, for a shared or lost computer), then the applicant's rights over their data, "Download my
 * data" and "Delete my account" (D152). Logged out: "Sign In" and "Create Account", both carrying
 * the current answers in navigation state and the page to come back to (D159). The shell hides it
 * for service users.
 */
import * as Popover from '@radix-ui/react-popover';
import { Link } from '@tanstack/react-router';
import { useState, type RefObject } from 'react';
import type { StudentAnswers } from '../session/navigationState';
import type { ReturnSearch } from '../session/returnTo';
import menu from './accountMenu.module.css';
import styles from './chrome.module.css';
import { chromeText } from './chromeText';
import { Icon } from './Icon';

const text = chromeText.account;

export interface AccountPopoverProps {
  loggedIn: boolean;
  username: string | null;
  studentAnswers: StudentAnswers;
  /** `?next=`: the form page the applicant is on (D159). */
  returnTo: ReturnSearch;
  onLogout: () => void;
  /** Ends every session of the account, on every computer (D142). */
  onLogoutEverywhere: () => void;
  onDownloadData: () => void;
  onDeleteAccount: () => void;
  /** The Account button, for a dialog opened from the popover to give focus back to. */
  triggerRef?: RefObject<HTMLButtonElement | null>;
  /** Open from the start: the shell's stand-in button was pressed (Radix moves focus into it). */
  initiallyOpen?: boolean;
}

export function AccountPopover({
  loggedIn,
  username,
  studentAnswers,
  returnTo,
  onLogout,
  onLogoutEverywhere,
  onDownloadData,
  onDeleteAccount,
  triggerRef,
  initiallyOpen = false,
}: AccountPopoverProps) {
  const [open, setOpen] = useState(initiallyOpen);
  const close = () => setOpen(false);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger ref={triggerRef} className={styles.accountTrigger}>
        <Icon name="user" />
        {text.trigger}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className={styles.popover}
          aria-label={text.trigger}
          align="end"
          sideOffset={8}
          collisionPadding={8}
        >
          {loggedIn ? (
            <>
              <p className={styles.accountUser}>
                <Icon name="mail" className={styles.accountUserIcon} />
                <span className="visually-hidden">{text.signedInAs} </span>
                <span className={styles.accountUsername}>{username}</span>
              </p>
              <button
                type="button"
                className={styles.popoverAction}
                onClick={() => {
                  close();
                  onLogout();
                }}
              >
                {text.logOut}
              </button>
              <button
                type="button"
                className={styles.popoverAction}
                onClick={() => {
                  close();
                  onLogoutEverywhere();
                }}
              >
                {text.logOutEverywhere}
              </button>
              <hr className={menu.popoverRule} />
              <button
                type="button"
                className={menu.popoverQuiet}
                onClick={() => {
                  close();
                  onDownloadData();
                }}
              >
                <Icon name="download" />
                {text.downloadData}
              </button>
              <button
                type="button"
                className={menu.popoverQuiet}
                aria-haspopup="dialog"
                onClick={() => {
                  close();
                  onDeleteAccount();
                }}
              >
                {text.deleteAccount}
              </button>
            </>
          ) : (
            <>
              <Link
                to="/login"
                search={returnTo}
                state={{ studentAnswers }}
                className={styles.popoverAction}
                onClick={close}
              >
                {text.signIn}
              </Link>
              <Link
                to="/signup"
                search={returnTo}
                state={{ studentAnswers }}
                className={styles.popoverAction}
                onClick={close}
              >
                {text.createAccount}
              </Link>
            </>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
