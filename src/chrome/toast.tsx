/**
 * Toasts (SPEC 2.7, 9): success and error, 5 s by default, each with a visible close button. The
 * provider sits above the router so a toast outlives the navigation that follows it.
 */
import * as Toast from '@radix-ui/react-toast';
import { createContext, useCallback, useContext, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import styles from './chrome.module.css';
import { Icon } from './Icon';

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

export interface ToastApi {
  show(toast: ToastOptions): void;
}

interface ActiveToast extends ToastOptions {
  readonly id: number;
}

const ToastContext = createContext<ToastApi | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<readonly ActiveToast[]>([]);
  const nextId = useRef(0);

  const show = useCallback((toast: ToastOptions) => {
    nextId.current += 1;
    const id = nextId.current;
    setToasts((list) => [...list, { ...toast, id }]);
  }, []);

  const closed = useCallback((toast: ActiveToast) => {
    setToasts((list) => list.filter((item) => item.id !== toast.id));
    toast.onClose?.();
  }, []);

  const api = useMemo<ToastApi>(() => ({ show }), [show]);

  return (
    <ToastContext.Provider value={api}>
      <Toast.Provider duration={DEFAULT_TOAST_MS} swipeDirection="right">
        {children}
        {toasts.map((toast) => (
          <Toast.Root
            key={toast.id}
            className={styles.toast}
            data-severity={toast.severity}
            type={toast.severity === 'error' ? 'foreground' : 'background'}
            duration={toast.duration ?? DEFAULT_TOAST_MS}
            aria-label={toast.label}
            onOpenChange={(open) => {
              if (!open) closed(toast);
            }}
          >
            <Icon
              name={toast.severity === 'error' ? 'alert' : 'checkCircle'}
              className={styles.toastIcon}
            />
            <div className={styles.toastBody}>
              <Toast.Title className={styles.toastTitle}>{toast.title}</Toast.Title>
              {toast.description ? (
                <Toast.Description className={styles.toastDescription}>
                  {toast.description}
                </Toast.Description>
              ) : null}
            </div>
            <Toast.Close className={styles.iconButton} aria-label="Close">
              <Icon name="close" />
            </Toast.Close>
          </Toast.Root>
        ))}
        <Toast.Viewport className={styles.toastViewport} label="Notifications" />
      </Toast.Provider>
    </ToastContext.Provider>
  );
}

/** The toast API; throws a named error outside ToastProvider. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast must be used inside <ToastProvider>.');
  return api;
}
