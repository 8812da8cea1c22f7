/**
 * The documents feature's two modals (SPEC 4.4, 4.6): Delete File, which confirms a deletion, and
 * File Upload in Progress, which explains a refused tab switch.
 */
import { useRef } from 'react';
import { notices } from '#contract/words.ts';
import { DocumentDialog } from './DocumentDialog';
import styles from './documents.module.css';

/** The Delete button is gone once the file is: focus goes back to the question's own button. */
export const focusQuestion = (key: string | null) => (event: Event) => {
  if (!key) return;
  const target = document.getElementById(key)?.querySelector<HTMLElement>('button');
  if (target) {
    event.preventDefault();
    target.focus();
  }
};

/**
 * After an accepted smaller copy the question's button is disabled while the copy uploads, and
 * gone once the file is there: focus goes to the question itself (its fieldset, which stays through
 * every phase and announces the upload as busy), not to a button that is about to drop it (D198).
 */
export const focusQuestionFrame = (key: string | null) => (event: Event) => {
  const frame = key ? document.getElementById(key) : null;
  if (frame) {
    event.preventDefault();
    frame.focus();
  }
};

export function DeleteFileDialog({
  deleting,
  pending,
  onConfirm,
  onCancel,
}: {
  /** The question whose file the applicant asked to delete (null: closed). */
  readonly deleting: string | null;
  readonly pending: boolean;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}) {
  // Still named while the dialog animates out, so focus returns to the right question.
  const last = useRef<string | null>(null);
  if (deleting) last.current = deleting;
  return (
    <DocumentDialog
      open={deleting !== null}
      title={notices.deleteFile.title}
      text={notices.deleteFile.text}
      onOpenChange={(open) => {
        if (!open && !pending) onCancel();
      }}
      onCloseAutoFocus={focusQuestion(last.current)}
    >
      <button type="button" className={styles.secondary} onClick={onCancel} disabled={pending}>
        {notices.deleteFile.cancel}
      </button>
      <button
        type="button"
        className={styles.primary}
        onClick={onConfirm}
        disabled={pending}
        aria-busy={pending || undefined}
      >
        {notices.deleteFile.confirm}
      </button>
    </DocumentDialog>
  );
}

export function UploadInProgressDialog({
  open,
  onOpenChange,
}: {
  readonly open: boolean;
  readonly onOpenChange: (open: boolean) => void;
}) {
  return (
    <DocumentDialog
      open={open}
      title={notices.uploadInProgress.title}
      text={notices.uploadInProgress.text}
      onOpenChange={onOpenChange}
    >
      <button type="button" className={styles.primary} onClick={() => onOpenChange(false)}>
        {notices.uploadInProgress.close}
      </button>
    </DocumentDialog>
  );
}
