/**
 * The Radix part of the chrome's modals, loaded on demand by ChromeDialog (Radix Dialog, its focus
 * scope and scroll lock stay off the first page: docs/decisions/ D29).
 */
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode, RefObject } from 'react';
import styles from './chrome.module.css';
import { chromeText } from './chromeText';
import { Icon } from './Icon';

export interface ChromeDialogFrameProps {
  title: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opened the dialog: focus goes back to it on close. */
  returnFocusTo: RefObject<HTMLElement | null>;
  children: ReactNode;
}

export default function ChromeDialogFrame({
  title,
  open,
  onOpenChange,
  returnFocusTo,
  children,
}: ChromeDialogFrameProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.dialog}
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
        >
          <div className={styles.dialogHeader}>
            <Dialog.Title className={styles.dialogTitle}>{title}</Dialog.Title>
            <Dialog.Close className={styles.iconButton} aria-label={chromeText.close}>
              <Icon name="close" />
            </Dialog.Close>
          </div>
          <div className={styles.dialogBody}>{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
