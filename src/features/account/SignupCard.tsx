/** SPEC 2.5 Sign Up (/signup): e-mail and password with the live checklist; on success, /confirm. */
import { useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { signupBody } from '../../../contract';
import { useSignup } from './api/signup';
import { AccountCard } from './AccountCard';
import { accountText, cardErrorTitle } from './accountText';
import { carriedAnswers, stateText, useNavigationState } from './navigation';
import { PasswordChecklist } from './PasswordChecklist';
import { PasswordField } from './PasswordField';
import { StateMessages } from './StateMessages';
import { TextField } from './TextField';
import { useCardToasts } from './useCardToasts';
import { useCardSubmit } from './useCardSubmit';

export function SignupCard() {
  const state = useNavigationState();
  const studentAnswers = carriedAnswers(state);
  const navigate = useNavigate();
  const signup = useSignup();
  const { showError } = useCardToasts();
  const checklistId = useId();

  const [username, setUsername] = useState(() => stateText(state.username) ?? '');
  const [password, setPassword] = useState('');
  const [passwordTouched, setPasswordTouched] = useState(false);

  const result = signupBody.safeParse({ username: username.trim(), password });
  const { formRef, submitted, errors, attempt } = useCardSubmit(result);
  // SPEC 5.2: before a submit attempt only the password is checked, after it both.
  const shown = {
    username: submitted ? errors.username : undefined,
    password: submitted || passwordTouched ? errors.password : undefined,
  };

  const submit = () => {
    attempt((body) =>
      signup.mutate(body, {
        onSuccess: ({ message }) =>
          void navigate({
            to: '/confirm',
            state: { username: body.username, successMessage: message, studentAnswers },
          }),
        onError: (error) => showError(cardErrorTitle('signup'), error),
      }),
    );
  };

  return (
    <AccountCard
      title={accountText.titles.signup}
      onSubmit={submit}
      pending={signup.isPending}
      footer={accountText.footers.signup}
      studentAnswers={studentAnswers}
      formRef={formRef}
      intro={
        <StateMessages
          errorMessage={stateText(state.errorMessage)}
          successMessage={stateText(state.successMessage)}
        />
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
        error={shown.username}
      />
      <PasswordField
        label={accountText.labels.password}
        name="password"
        autoComplete="new-password"
        value={password}
        onValueChange={(value) => {
          setPassword(value);
          setPasswordTouched(true);
        }}
        error={shown.password}
        describedById={checklistId}
      />
      <PasswordChecklist id={checklistId} password={password} />
    </AccountCard>
  );
}
