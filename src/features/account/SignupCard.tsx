/** SPEC 2.5 Sign Up (/signup): e-mail and password with the live checklist; on success, /confirm. */
import { useNavigate } from '@tanstack/react-router';
import { useId } from 'react';
import { signupBody } from '#contract';
import { useSignup } from './api/signup';
import { AccountCard } from './AccountCard';
import styles from './account.module.css';
import { accountText, cardErrorTitle } from './accountText';
import { carriedAnswers, stateText, useNavigationState, useReturnTo } from './navigation';
import { PasswordChecklist } from '../../components/PasswordChecklist';
import { PasswordField } from '../../components/form/PasswordField';
import { StateMessages } from './StateMessages';
import { EmailField } from './EmailField';
import { useCardToasts } from './useCardToasts';
import { fieldError, useAccountForm } from '../../components/form/useAccountForm';

export function SignupCard() {
  const state = useNavigationState();
  const studentAnswers = carriedAnswers(state);
  const next = useReturnTo();
  const navigate = useNavigate();
  const signup = useSignup();
  const { showError } = useCardToasts();
  const checklistId = useId();

  const { form, formRef, submitted, submit } = useAccountForm({
    defaultValues: { username: stateText(state.username) ?? '', password: '' },
    parse: ({ username, password }) =>
      signupBody.safeParse({ username: username.trim(), password }),
    onValid: (body) =>
      signup.mutate(body, {
        onSuccess: ({ message }) =>
          void navigate({
            to: '/confirm',
            search: { next },
            state: { username: body.username, successMessage: message, studentAnswers },
          }),
        onError: (error) => showError(cardErrorTitle('signup'), error),
      }),
  });

  return (
    <AccountCard
      title={accountText.titles.signup}
      onSubmit={submit}
      pending={signup.isPending}
      footer={accountText.footers.signup}
      studentAnswers={studentAnswers}
      next={next}
      formRef={formRef}
      intro={
        <>
          <StateMessages
            errorMessage={stateText(state.errorMessage)}
            successMessage={stateText(state.successMessage)}
          />
          {studentAnswers ? (
            <p className={styles.intro}>{accountText.hints.signupFromForm}</p>
          ) : null}
        </>
      }
    >
      <form.Field name="username">
        {(field) => (
          <EmailField
            value={field.state.value}
            onValueChange={field.handleChange}
            error={submitted ? fieldError(field.state.meta) : undefined}
          />
        )}
      </form.Field>
      {/* SPEC 5.2: before a submit attempt only the password is checked, after it both. */}
      <form.Field name="password">
        {(field) => (
          <>
            <PasswordField
              label={accountText.labels.password}
              name="password"
              autoComplete="new-password"
              value={field.state.value}
              onValueChange={field.handleChange}
              error={
                submitted || field.state.meta.isTouched ? fieldError(field.state.meta) : undefined
              }
              describedById={checklistId}
            />
            <PasswordChecklist id={checklistId} password={field.state.value} />
          </>
        )}
      </form.Field>
    </AccountCard>
  );
}
