/**
 * The confirmation before an instance holding answers is removed (D148): a Radix alert dialog,
 * loaded on demand. Cancel has focus first (the safe choice); closing returns focus to "Remove".
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useRef } from 'react';
import type { RepeatText } from '../registry';
import styles from './repeat.module.css';

export interface RemoveDialogProps {
  readonly text: RepeatText;
  readonly name: string;
  readonly onCancel: () => void;
  readonly onConfirm: () => void;
  /** The "Remove" button that asked: focus goes back to it when the applicant cancels. */
  readonly returnFocusTo: HTMLElement | null;
}

export default function RemoveDialog({
  text,
  name,
  onCancel,
  onConfirm,
  returnFocusTo,
}: RemoveDialogProps) {
  const confirmed = useRef(false);
  return (
    <Dialog.Root open onOpenChange={(open) => open || onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          role="alertdialog"
          className={styles.dialog}
          // Opened without a Radix trigger, so focus is put back here; after a confirmed removal the
          // repeat moves it itself (to the instance now in its place).
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (!confirmed.current) returnFocusTo?.focus();
          }}
        >
          <Dialog.Title className={styles.dialogTitle}>{text.confirmTitle(name)}</Dialog.Title>
          <Dialog.Description className={styles.dialogText}>{text.confirmText}</Dialog.Description>
          <div className={styles.actions}>
            <Dialog.Close className={styles.cancel}>{text.cancel}</Dialog.Close>
            <button
              type="button"
              className={styles.confirm}
              onClick={() => {
                confirmed.current = true;
                onConfirm();
              }}
            >
              {text.confirm}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
