/**
 * SPEC 2.9: service-user mode is entered through `?service_token=`. The token is read once into
 * memory and removed from the address bar (SECURITY.md: compensating controls for URL tokens).
 */
import { SERVICE_TOKEN_PARAM } from '../../../contract';

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
