/**
 * What a failed action of the session shows, kept in the store for the layout to show (SPEC 8):
 * a 401 nothing here (it went through `mutate` to the central handler, which goes to /login); a
 * server's refusal its message; anything else the generic message, as the "Error" toast of an
 * unhandled error (300 s; closing it resets the fault). Nothing is rethrown: the actions run from
 * clicks and timers, where a rejection would reach no one (D171).
 */
import { GENERIC_ERROR_MESSAGE } from '#contract';
import { notices } from '#contract/words.ts';
import { ServerError, UnauthorizedError } from '#src/api/client.ts';
import { ERROR_BOUNDARY_TOAST_MS, type ToastOptions } from '#src/chrome/toastModel.ts';
import { patch, type ApplicationStore, type Fault } from './state';

export function reportFailure(store: ApplicationStore, error: unknown): void {
  if (error instanceof UnauthorizedError) return;
  const refused = error instanceof ServerError;
  // An unexpected error is a bug: its details go to the console, the applicant sees the message.
  if (!refused) console.error(error);
  const tick = (store.state.fault?.tick ?? 0) + 1;
  patch(store, {
    fault: { message: refused ? error.message : GENERIC_ERROR_MESSAGE, unexpected: !refused, tick },
  });
}

/** The toast that shows `fault`; closing it resets the fault unless a newer one came. */
export function faultToast(store: ApplicationStore, fault: Fault): ToastOptions {
  return {
    title: notices.errorTitle,
    description: fault.message,
    severity: 'error',
    duration: fault.unexpected ? ERROR_BOUNDARY_TOAST_MS : undefined,
    onClose: () => {
      if (store.state.fault?.tick === fault.tick) patch(store, { fault: null });
    },
  };
}
