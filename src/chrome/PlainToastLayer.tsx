/**
 * The toasts without Radix: used only when the Radix layer's chunk cannot be fetched (the network
 * dropped before it was preloaded), so an error toast is never lost. Same look, same timings, a
 * live region and a close button.
 */
import { useEffect, useRef } from 'react';
import styles from './chrome.module.css';
import { chromeText } from './chromeText';
import { Icon } from './Icon';
import { DEFAULT_TOAST_MS, type ActiveToast, type ToastLayerProps } from './toastModel';

function PlainToast({ toast, onClosed }: { toast: ActiveToast; onClosed: () => void }) {
  const close = useRef(onClosed);
  close.current = onClosed;
  useEffect(() => {
    const timer = setTimeout(() => close.current(), toast.duration ?? DEFAULT_TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  return (
    <li
      className={styles.toast}
      data-severity={toast.severity}
      role={toast.severity === 'error' ? 'alert' : 'status'}
      aria-label={toast.label}
    >
      <Icon
        name={toast.severity === 'error' ? 'alert' : 'checkCircle'}
        className={styles.toastIcon}
      />
      <div className={styles.toastBody}>
        <div className={styles.toastTitle}>{toast.title}</div>
        {toast.description ? (
          <div className={styles.toastDescription}>{toast.description}</div>
        ) : null}
      </div>
      <button
        type="button"
        className={styles.iconButton}
        aria-label={chromeText.close}
        onClick={onClosed}
      >
        <Icon name="close" />
      </button>
    </li>
  );
}

export function PlainToastLayer({ toasts, onClosed }: ToastLayerProps) {
  return (
    <section aria-label={chromeText.notifications}>
      <ol className={styles.toastViewport}>
        {toasts.map((toast) => (
          <PlainToast key={toast.id} toast={toast} onClosed={() => onClosed(toast)} />
        ))}
      </ol>
    </section>
  );
}
