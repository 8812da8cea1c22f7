/**
 * SPEC 2.9: service-user mode is entered through `?service_token=`. The token is read once, removed
 * from the address bar (SECURITY.md: compensating controls for URL tokens) and kept for this tab in
 * sessionStorage, so a reload shows the same view instead of an empty anonymous form (D79).
 */
import { SERVICE_TOKEN_PARAM } from '#contract';

/** The token of the address, if any (read by main.tsx before anything else runs). */
export function serviceTokenInAddress(location: Location = window.location): string | null {
  const token = new URLSearchParams(location.search).get(SERVICE_TOKEN_PARAM);
  return token === null || token === '' ? null : token;
}

/** Replaces the address with the same one without the token (no navigation, no history entry). */
export function stripServiceToken(): void {
  const url = new URL(window.location.href);
  url.searchParams.delete(SERVICE_TOKEN_PARAM);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/** The tab's service token (sessionStorage: this tab only, gone when it closes). */
const KEPT_TOKEN = 'service-view-token';

export function keepServiceToken(token: string): void {
  try {
    sessionStorage.setItem(KEPT_TOKEN, token);
  } catch {
    // Storage refused (private mode, quota): the view still works until a reload.
  }
}

export function keptServiceToken(): string | null {
  try {
    return sessionStorage.getItem(KEPT_TOKEN) || null;
  } catch {
    return null;
  }
}

/** An expired or revoked token is forgotten: the next load is the applicant app again. */
export function forgetServiceToken(): void {
  try {
    sessionStorage.removeItem(KEPT_TOKEN);
  } catch {
    // Nothing kept.
  }
}
