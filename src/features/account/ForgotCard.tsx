/** SPEC 2.5 Forgot Password (/forgot): e-mail; on success a closable toast with the server's message. */
import { useState } from 'react';
import { forgotBody } from '../../../contract';
import { useForgotPassword } from './api/forgotPassword';
import styles from './account.module.css';
import { AccountCard } from './AccountCard';
import { accountText, cardErrorTitle } from './accountText';
import { carriedAnswers, stateText, useNavigationState } from './navigation';
import { StateMessages } from './StateMessages';
import { TextField } from './TextField';
import { useCardToasts } from './useCardToasts';
import { useCardSubmit } from './useCardSubmit';

export function ForgotCard() {
  const state = useNavigationState();
  const studentAnswers = carriedAnswers(state);
  const forgot = useForgotPassword();
  const { showError, showSuccess } = useCardToasts();

  const [username, setUsername] = useState(() => stateText(state.username) ?? '');

  const result = forgotBody.safeParse({ username: username.trim() });
  const { formRef, submitted, errors, attempt } = useCardSubmit(result);
  const shownError = submitted ? errors.username : undefined;

  const submit = () => {
    attempt((body) =>
      forgot.mutate(body, {
        onSuccess: ({ message }) => showSuccess(message),
        onError: (error) => showError(cardErrorTitle('forgot'), error),
      }),
    );
  };

  return (
    <AccountCard
      title={accountText.titles.forgot}
      onSubmit={submit}
      pending={forgot.isPending}
      footer={accountText.footers.forgot}
      studentAnswers={studentAnswers}
      formRef={formRef}
      intro={
        <>
          <StateMessages
            errorMessage={stateText(state.errorMessage)}
            successMessage={stateText(state.successMessage)}
          />
          <p className={styles.intro}>{accountText.hints.forgot}</p>
        </>
      }
    >
      <TextField
        label={accountText.labels.email}
        name="username"
        type="email"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        value={username}
        onValueChange={setUsername}
        error={shownError}
      />
    </AccountCard>
  );
}
