/**
 * SPEC 2.5 Log In (/login): e-mail and password, checked only after a submit attempt; the messages
 * received in navigation state; resend (to /confirm) and "Forgot password?"; on success, the default
 * route, where the form page reads the indicator cookie to know the user is logged in.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { applicationDefinition } from '../../tenant/tenantData';
import { loginBody, NOT_CONFIRMED_CODE, resendBody } from '#contract';
import { ServerError } from '../../api/client';
import { sessionBegan } from '../../session/sessionData';
import { useLogin } from './api/login';
import { useResendConfirm } from './api/resendConfirm';
import styles from './account.module.css';
import { AccountCard } from './AccountCard';
import { accountText, cardErrorTitle, RESEND_ERROR_TITLE } from './accountText';
import { carriedAnswers, stateText, useNavigationState, useReturnTo } from './navigation';
import { PasswordField } from '../../components/form/PasswordField';
import { StateMessages } from './StateMessages';
import { EmailField } from './EmailField';
import { useCardToasts } from './useCardToasts';
import { fieldError, useAccountForm } from '../../components/form/useAccountForm';
import { useStore } from '@tanstack/react-form';
import { firstErrors } from '../../components/form/validation';

export function LoginCard() {
  const state = useNavigationState();
  const studentAnswers = carriedAnswers(state);
  const next = useReturnTo();
  const navigate = useNavigate();
  const login = useLogin();
  const queryClient = useQueryClient();
  const resend = useResendConfirm();
  const { showError } = useCardToasts();

  const [resendError, setResendError] = useState<string>();
  const { form, formRef, focusInvalid, submitted, submit } = useAccountForm({
    defaultValues: { username: stateText(state.username) ?? '', password: '' },
    parse: ({ username, password }) => loginBody.safeParse({ username: username.trim(), password }),
    onValid: (body) =>
      login.mutate(body, {
        onSuccess: ({ message }) => {
          // A new session reads nothing cached by the one before it (another applicant, perhaps,
          // or an older last page that the resume would follow), however that one ended.
          sessionBegan(queryClient);
          void navigate({
            // D159: the page the applicant was heading to, else the default route and the resume.
            to: next ?? applicationDefinition.defaultRoute,
            state: {
              // REQ-R-4: answers left unsaved by an ended session go only to the same applicant.
              studentAnswers: sameApplicant(state.unsavedFor, body.username)
                ? studentAnswers
                : undefined,
              successMessage: message,
              // SPEC 2.2: a login resumes on the last page (D113).
              resume: next === undefined,
            },
          });
        },
        onError: (error) => {
          if (
            error instanceof ServerError &&
            error.status === 403 &&
            error.code === NOT_CONFIRMED_CODE
          ) {
            void navigate({
              to: '/confirm',
              search: { next },
              state: { username: body.username, errorMessage: error.message, studentAnswers },
            });
            return;
          }
          showError(cardErrorTitle('login'), error);
        },
      }),
  });
  const username = useStore(form.store, (formState) => formState.values.username);

  const resendCode = () => {
    const parsed = resendBody.safeParse({ username: username.trim() });
    if (!parsed.success) {
      setResendError(firstErrors(parsed).username);
      focusInvalid();
      return;
    }
    setResendError(undefined);
    const body = parsed.data;
    resend.mutate(body, {
      onSuccess: ({ message }) =>
        void navigate({
          to: '/confirm',
          search: { next },
          state: { username: body.username, successMessage: message, studentAnswers },
        }),
      onError: (error) => showError(RESEND_ERROR_TITLE, error),
    });
  };

  return (
    <AccountCard
      title={accountText.titles.login}
      onSubmit={() => {
        setResendError(undefined);
        submit();
      }}
      pending={login.isPending}
      footer={accountText.footers.login}
      studentAnswers={studentAnswers}
      next={next}
      formRef={formRef}
      intro={
        <StateMessages
          errorMessage={stateText(state.errorMessage)}
          successMessage={stateText(state.successMessage)}
        />
      }
      actions={
        <>
          <Link
            to="/forgot"
            state={{ studentAnswers, username: username.trim() || undefined }}
            className={styles.linkButton}
          >
            {accountText.forgotLink}
          </Link>
          <button
            type="button"
            className={styles.linkButton}
            onClick={resendCode}
            disabled={resend.isPending}
            aria-busy={resend.isPending}
          >
            {accountText.resend}
          </button>
        </>
      }
    >
      {/* SPEC 5.2: nothing is checked before a submit attempt. */}
      <form.Field name="username">
        {(field) => (
          <EmailField
            value={field.state.value}
            onValueChange={(value) => {
              field.handleChange(value);
              setResendError(undefined);
            }}
            error={resendError ?? (submitted ? fieldError(field.state.meta) : undefined)}
          />
        )}
      </form.Field>
      <form.Field name="password">
        {(field) => (
          <PasswordField
            label={accountText.labels.password}
            name="password"
            autoComplete="current-password"
            value={field.state.value}
            onValueChange={field.handleChange}
            error={submitted ? fieldError(field.state.meta) : undefined}
          />
        )}
      </form.Field>
    </AccountCard>
  );
}

/** True when no one in particular owns the carried answers, or their owner is logging in. */
function sameApplicant(owner: string | undefined, username: string): boolean {
  return owner === undefined || owner.trim().toLowerCase() === username.trim().toLowerCase();
}
