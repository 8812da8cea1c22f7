/**
 * "Delete my account" (D152, D164, GDPR art. 17): says what will happen, which differs once the
 * application is submitted (the college keeps it for its `retention.submitted_years`, so the
 * request goes to an admin), asks for the password again and shows a refusal next to the field,
 * nothing typed lost. Before submission the account is gone on success and `onDeleted` signs the
 * tab out; after, the dialog says the request was sent and the applicant stays signed in.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { deleteAccountBody } from '#contract';
import { UnauthorizedError } from '../../api/client';
import chrome from '../../chrome/chrome.module.css';
import { chromeText } from '../../chrome/chromeText';
import { Icon } from '../../chrome/Icon';
import { institutionConfig } from '../../tenant/tenantData';
import fields from './account.module.css';
import { rightsText as text } from './accountText';
import { useDeleteAccount } from './api/accountRights';
import { PasswordField } from '../../components/form/PasswordField';
import { StateMessages } from './StateMessages';
import styles from './rights.module.css';

export interface DeleteAccountDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The application is submitted: the deletion is a request an admin completes. */
  submitted: boolean;
  /** Where focus goes when the dialog closes (the Account button). */
  returnFocusTo: RefObject<HTMLElement | null>;
  /** The account is gone: the server's message, for the sign-in page. */
  onDeleted: (message: string) => void;
}

export default function DeleteAccountDialog({
  open,
  onOpenChange,
  submitted,
  returnFocusTo,
  onDeleted,
}: DeleteAccountDialogProps) {
  const deletion = useDeleteAccount();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [requested, setRequested] = useState<string | null>(null);
  const field = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const hintId = useId();
  const descriptionId = useId();
  // A double click sends one request (the button is disabled only once React has rendered again).
  const sending = useRef(false);

  // Each opening starts afresh: no password kept from the last time.
  useEffect(() => {
    if (open) return;
    setPassword('');
    setError(null);
    setRequested(null);
    deletion.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `reset` is stable; only `open` matters
  }, [open]);
  useEffect(() => {
    if (requested) closeButton.current?.focus();
  }, [requested]);

  const refuse = (message: string) => {
    setError(message);
    field.current?.querySelector('input')?.focus();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    const checked = deleteAccountBody.safeParse({ password });
    if (!checked.success) return refuse(checked.error.issues[0]?.message ?? '');
    sending.current = true;
    setError(null);
    deletion.mutate(password, {
      onSettled: () => (sending.current = false),
      onSuccess: (done) => {
        if (done.outcome === 'deleted') onDeleted(done.message);
        else setRequested(done.message);
      },
      // A 401 (the session ended meanwhile) is handled once, centrally, like every call's.
      onError: (failure) => {
        if (!(failure instanceof UnauthorizedError)) refuse(failure.message);
      },
    });
  };

  const { partner_name, retention } = institutionConfig;
  const explanation = submitted
    ? text.afterSubmission(partner_name, retention.submitted_years)
    : text.beforeSubmission;
  const pending = deletion.isPending;
  const action = submitted
    ? { idle: text.sendRequest, busy: text.sending }
    : { idle: text.deleteNow, busy: text.deleting };
  return (
    // Open until the answer is in: closing meanwhile would lose what the server did.
    <Dialog.Root open={open} onOpenChange={(next) => (next || !pending) && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className={chrome.overlay} />
        <Dialog.Content
          className={chrome.dialog}
          aria-describedby={descriptionId}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            field.current?.querySelector('input')?.focus();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
        >
          <div className={chrome.dialogHeader}>
            <Dialog.Title className={chrome.dialogTitle}>{text.title}</Dialog.Title>
            <Dialog.Close className={chrome.iconButton} aria-label={chromeText.close}>
              <Icon name="close" />
            </Dialog.Close>
          </div>
          <div className={chrome.dialogBody}>
            {requested ? (
              <>
                <div id={descriptionId}>
                  <StateMessages successMessage={requested} />
                </div>
                <div className={styles.buttons}>
                  <Dialog.Close ref={closeButton} className={styles.cancel}>
                    {text.done}
                  </Dialog.Close>
                </div>
              </>
            ) : (
              <>
                <div id={descriptionId}>
                  {explanation.map((paragraph) => (
                    <p key={paragraph} className={styles.text}>
                      {paragraph}
                    </p>
                  ))}
                </div>
                <form className={styles.form} onSubmit={submit} noValidate>
                  <p id={hintId} className={fields.hint}>
                    {text.passwordHint}
                  </p>
                  <div ref={field}>
                    <PasswordField
                      label={text.password}
                      name="password"
                      autoComplete="current-password"
                      value={password}
                      onValueChange={setPassword}
                      error={error ?? undefined}
                      describedById={hintId}
                    />
                  </div>
                  <div className={styles.buttons}>
                    <Dialog.Close className={styles.cancel} type="button">
                      {text.cancel}
                    </Dialog.Close>
                    {/* aria-disabled, not disabled: the button keeps focus while it waits. */}
                    <button type="submit" className={styles.danger} aria-disabled={pending}>
                      {pending ? <span className={fields.spinner} aria-hidden="true" /> : null}
                      {pending ? action.busy : action.idle}
                    </button>
                  </div>
                </form>
              </>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
