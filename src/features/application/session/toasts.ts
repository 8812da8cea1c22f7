/**
 * The session's toasts: a session starts before its layout renders (the router creates it), so
 * the toasts raised until then wait here and show once the layout attaches.
 */
import type { ToastOptions } from '#src/chrome/toast.tsx';

export class ToastBuffer {
  private waiting: ToastOptions[] = [];
  private shown: ((toast: ToastOptions) => void) | null = null;

  /** The layout shows the toasts from now on; the waiting ones show at once. */
  attach(show: (toast: ToastOptions) => void): () => void {
    this.shown = show;
    for (const toast of this.waiting.splice(0)) show(toast);
    return () => {
      if (this.shown === show) this.shown = null;
    };
  }

  show = (toast: ToastOptions): void => {
    if (this.shown) this.shown(toast);
    else this.waiting.push(toast);
  };
}
