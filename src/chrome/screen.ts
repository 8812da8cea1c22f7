/**
 * What every screen does when it appears: its own document title, and focus on its heading when the
 * applicant arrived from another screen of the app (after Save & Continue, sign-up, confirm, login),
 * so a screen reader starts on the new screen instead of on nothing.
 */
import { useEffect, type RefObject } from 'react';
import { institutionConfig } from '../tenant/tenantData';

/** "About You – Northfield College Application". */
export function documentTitle(screen: string): string {
  return `${screen} – ${institutionConfig.application_title}`;
}

export function useDocumentTitle(screen: string): void {
  useEffect(() => {
    document.title = documentTitle(screen);
  }, [screen]);
}

/** The document's first screen is where the browser starts; any later one was navigated to. */
let screensShown = 0;

/** Counts a screen's arrival; true when another screen of this document came before it. */
export function arrivedFromAnotherScreen(): boolean {
  screensShown += 1;
  return screensShown > 1;
}

/** True when focus is nowhere (it was on a control of the screen that just went away). */
export function focusIsLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}

/** Focuses a screen's heading (it carries tabIndex -1) without scrolling, on arrival from elsewhere. */
export function useHeadingFocusOnArrival(heading: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (arrivedFromAnotherScreen() && focusIsLost())
      heading.current?.focus({ preventScroll: true });
  }, [heading]);
}
