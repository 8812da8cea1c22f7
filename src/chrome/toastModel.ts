/** Toasts' shape and timings, shared by the provider and the layers that draw them. */
/** SPEC 9: the default toast duration. */
export const DEFAULT_TOAST_MS = 5_000;
/** SPEC 9: the error-boundary toast stays 300 seconds. */
export const ERROR_BOUNDARY_TOAST_MS = 300_000;

export type ToastSeverity = 'success' | 'error';

export interface ToastOptions {
  title: string;
  description?: string;
  severity: ToastSeverity;
  /** Milliseconds before it closes by itself; DEFAULT_TOAST_MS when left out. */
  duration?: number;
  /** Called once when the toast closes (timer, close button, Escape or swipe). */
  onClose?: () => void;
  /** The toast's accessible name, e.g. "Sign Up Card Error" or "Success Notification". */
  label?: string;
}

export interface ActiveToast extends ToastOptions {
  readonly id: number;
}

/** What the provider hands to the layer that draws its toasts. */
export interface ToastLayerProps {
  toasts: readonly ActiveToast[];
  onClosed: (toast: ActiveToast) => void;
}
