/**
 * Logout is shared across tabs (SECURITY.md 7.13): the tab that logs out tells the others, which go to
 * /login with the same message. BroadcastChannel is same-origin only; nothing secret is sent.
 */
const CHANNEL = 'admission-logout';

export interface LogoutNotice {
  readonly successMessage?: string;
  readonly errorMessage?: string;
}

export function announceLogout(notice: LogoutNotice): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({
    successMessage: notice.successMessage,
    errorMessage: notice.errorMessage,
  });
  channel.close();
}

/** Calls `handler` when another tab logs out; returns the unsubscribe function. */
export function onLogoutElsewhere(handler: (notice: LogoutNotice) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    const data = (typeof event.data === 'object' && event.data !== null ? event.data : {}) as {
      successMessage?: unknown;
      errorMessage?: unknown;
    };
    handler({
      successMessage: typeof data.successMessage === 'string' ? data.successMessage : undefined,
      errorMessage: typeof data.errorMessage === 'string' ? data.errorMessage : undefined,
    });
  };
  return () => channel.close();
}
