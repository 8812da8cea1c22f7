/** The toasts drawn with Radix Toast (swipe, F8 hotkey, pause on hover), loaded on demand. */
import * as Toast from '@radix-ui/react-toast';
import styles from './chrome.module.css';
import { chromeText } from './chromeText';
import { Icon } from './Icon';
import { DEFAULT_TOAST_MS, type ToastLayerProps } from './toastModel';

export default function ToastLayer({ toasts, onClosed }: ToastLayerProps) {
  return (
    <Toast.Provider duration={DEFAULT_TOAST_MS} swipeDirection="right">
      {toasts.map((toast) => (
        <Toast.Root
          key={toast.id}
          className={styles.toast}
          data-severity={toast.severity}
          type={toast.severity === 'error' ? 'foreground' : 'background'}
          duration={toast.duration ?? DEFAULT_TOAST_MS}
          aria-label={toast.label}
          onOpenChange={(open) => {
            if (!open) onClosed(toast);
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
          <Toast.Close className={styles.iconButton} aria-label={chromeText.close}>
            <Icon name="close" />
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className={styles.toastViewport} label={chromeText.notifications} />
    </Toast.Provider>
  );
}
