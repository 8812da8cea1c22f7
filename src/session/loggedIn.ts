/**
 * Whether this tab is logged in, as something a component re-renders on (SPEC 3.1; D198). The
 * indicator cookie says it, but a cookie tells nobody when it changes: a component that read it
 * before a login, and re-renders for nothing else, would go on reading "not logged in", and its
 * profile query would stay on the cache entry the login removed (D127), so what it shows would be
 * the session before the login until a reload. A login and each end of a session (sessionData.ts)
 * call `sessionChanged`, and every `useLoggedIn` re-renders and reads the cookie again.
 */
import { useSyncExternalStore } from 'react';
import { hasIndicatorCookie } from './cookies';

let generation = 0;
const listeners = new Set<() => void>();

/** A session began or ended in this tab: every `useLoggedIn` reads the cookie again. */
export function sessionChanged(): void {
  generation += 1;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => generation;

/** The indicator cookie, read again at every login and end of a session in this tab. */
export function useLoggedIn(): boolean {
  useSyncExternalStore(subscribe, snapshot, snapshot);
  return hasIndicatorCookie();
}
