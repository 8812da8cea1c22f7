/**
 * A small confirmation modal in the chrome's dialog style (SPEC 2.7): a title, one sentence and its
 * buttons. Controlled by the caller; `onCloseAutoFocus` lets the caller put focus back where it
 * belongs when the element that opened it is gone (a deleted file's button).
 */
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import chrome from '../../chrome/chrome.module.css';
import styles from './documents.module.css';

export interface DocumentDialogProps {
  open: boolean;
  title: string;
  text: string;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
  /** What the dialog shows between its sentence and its buttons (the smaller copy's preview). */
  body?: ReactNode;
  /** The dialog's class, when wider than the xs modal. */
  className?: string;
  /** The buttons; the first one gets focus. */
  children: ReactNode;
}

export function DocumentDialog({
  open,
  title,
  text,
  onOpenChange,
  onCloseAutoFocus,
  body,
  className = styles.dialog,
  children,
}: DocumentDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={chrome.overlay} />
        <Dialog.Content className={className} onCloseAutoFocus={onCloseAutoFocus}>
          <div className={styles.header}>
            <Dialog.Title className={chrome.dialogTitle}>{title}</Dialog.Title>
          </div>
          <div className={chrome.dialogBody}>
            <Dialog.Description className={styles.text}>{text}</Dialog.Description>
            {body}
            <div className={styles.actions}>{children}</div>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
