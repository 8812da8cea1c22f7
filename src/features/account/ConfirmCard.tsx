/**
 * SPEC 2.5 Confirm Your Account (/confirm): the 6-digit code for the username received in
 * navigation state (an Email Address field when there is none); resend; on success, /login.
 */
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { confirmBody, resendBody } from '../../../contract';
import { useConfirm } from './api/confirm';
import { useResendConfirm } from './api/resendConfirm';
import styles from './account.module.css';
import { AccountCard } from './AccountCard';
import { accountText, cardErrorTitle, RESEND_ERROR_TITLE } from './accountText';
import { carriedAnswers, stateText, useNavigationState } from './navigation';
import { StateMessages } from './StateMessages';
import { TextField } from './TextField';
import { useCardToasts } from './useCardToasts';
import { useCardSubmit } from './useCardSubmit';
import { firstErrors } from './validation';

export function ConfirmCard() {
  const state = useNavigationState();
  const studentAnswers = carriedAnswers(state);
  const knownUsername = stateText(state.username);
  const navigate = useNavigate();
  const confirm = useConfirm();
  const resend = useResendConfirm();
  const { showError, showSuccess } = useCardToasts();

  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [resendError, setResendError] = useState<string>();

  const username = knownUsername ?? email.trim();
  const result = confirmBody.safeParse({ username, code });
  const { formRef, focusInvalid, submitted, errors, attempt } = useCardSubmit(result);
  const shown = {
    username: resendError ?? (submitted ? errors.username : undefined),
    code: submitted ? errors.code : undefined,
  };

  const submit = () => {
    setResendError(undefined);
    attempt((body) =>
      confirm.mutate(body, {
        onSuccess: ({ message }) =>
          void navigate({
            to: '/login',
            state: { successMessage: message, studentAnswers, username: body.username },
          }),
        onError: (error) => showError(cardErrorTitle('confirm'), error),
      }),
    );
  };

  const resendCode = () => {
    const parsed = resendBody.safeParse({ username });
    if (!parsed.success) {
      setResendError(firstErrors(parsed).username);
      focusInvalid();
      return;
    }
    setResendError(undefined);
    resend.mutate(parsed.data, {
      onSuccess: ({ message }) => showSuccess(message),
      onError: (error) => showError(RESEND_ERROR_TITLE, error),
    });
  };

  return (
    <AccountCard
      title={accountText.titles.confirm}
      onSubmit={submit}
      pending={confirm.isPending}
      footer={accountText.footers.confirm}
      studentAnswers={studentAnswers}
      formRef={formRef}
      intro={
        <>
          <StateMessages
            errorMessage={stateText(state.errorMessage)}
            successMessage={stateText(state.successMessage)}
          />
          {knownUsername ? (
            <p className={styles.intro}>
              {accountText.hints.confirmingFor}{' '}
              <strong className={styles.username}>{knownUsername}</strong>
            </p>
          ) : null}
        </>
      }
      actions={
        <button
          type="button"
          className={styles.linkButton}
          onClick={resendCode}
          disabled={resend.isPending}
          aria-busy={resend.isPending}
        >
          {accountText.resend}
        </button>
      }
    >
      {knownUsername ? null : (
        <TextField
          label={accountText.labels.email}
          name="username"
          type="email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={email}
          onValueChange={(value) => {
            setEmail(value);
            setResendError(undefined);
          }}
          error={shown.username}
        />
      )}
      <TextField
        label={accountText.labels.code}
        hint={accountText.hints.code}
        name="code"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        value={code}
        onValueChange={(value) => setCode(value.replace(/\s+/g, ''))}
        error={shown.code}
      />
    </AccountCard>
  );
}
