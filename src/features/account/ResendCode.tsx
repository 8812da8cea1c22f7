/**
 * "Resend confirmation code" (SPEC 2.5), shared by the Log In and Confirm cards: the address is
 * checked as the server checks it (an error beside the e-mail field, focused), the call is made,
 * and a failure is the "Resend Confirmation Code Error" toast. What a sent code leads to is the
 * card's (Log In goes to /confirm; Confirm says so in a toast).
 */
import { useState } from 'react';
import { resendBody } from '#contract';
import { firstErrors } from '../../components/form/validation';
import { useResendConfirm } from './api/resendConfirm';
import styles from './account.module.css';
import { accountText, RESEND_ERROR_TITLE } from './accountText';
import { useCardToasts } from './useCardToasts';

interface ResendOptions {
  /** The address the code goes to, as typed or as received. */
  readonly username: string;
  /** Moves focus to the field in error. */
  readonly focusInvalid: () => void;
  readonly onSent: (message: string, username: string) => void;
}

/** The resend call of a card: its error for the e-mail field, and the button that makes it. */
export function useResendCode({ username, focusInvalid, onSent }: ResendOptions) {
  const resend = useResendConfirm();
  const { showError } = useCardToasts();
  const [error, setError] = useState<string>();

  const send = () => {
    const parsed = resendBody.safeParse({ username: username.trim() });
    if (!parsed.success) {
      setError(firstErrors(parsed).username);
      focusInvalid();
      return;
    }
    setError(undefined);
    const body = parsed.data;
    resend.mutate(body, {
      onSuccess: ({ message }) => onSent(message, body.username),
      onError: (failure) => showError(RESEND_ERROR_TITLE, failure),
    });
  };

  const button = (
    <button
      type="button"
      className={styles.linkButton}
      onClick={send}
      disabled={resend.isPending}
      aria-busy={resend.isPending}
    >
      {accountText.resend}
    </button>
  );
  return { error, clearError: () => setError(undefined), button };
}
