/**
 * The frame of the chrome's modals: a Radix dialog opened by its trigger (focus returns there on
 * close), a title, a visible close button labelled "Close", and the content.
 */
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactElement, ReactNode } from 'react';
import styles from './chrome.module.css';
import { chromeText } from './chromeText';
import { Icon } from './Icon';

export interface ChromeDialogProps {
  title: string;
  /** The element that opens the dialog (a button); it gets focus back when the dialog closes. */
  trigger: ReactElement;
  children: ReactNode;
}

export function ChromeDialog({ title, trigger, children }: ChromeDialogProps) {
  return (
    <Dialog.Root>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content className={styles.dialog} aria-describedby={undefined}>
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
