/**
 * SPEC 2.5 Log In (/login): e-mail and password, checked only after a submit attempt; the messages
 * received in navigation state; resend (to /confirm) and "Forgot password?"; on success, the default
 * route, where the form page reads the indicator cookie to know the user is logged in.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { applicationDefinition } from '../../tenant/tenantData';
import { loginBody, NOT_CONFIRMED_CODE } from '#contract';
import { ServerError } from '../../api/client';
import { sessionBegan } from '../../session/sessionData';
import { useLogin } from './api/login';
import styles from './account.module.css';
import { AccountCard } from './AccountCard';
import { accountText, cardErrorTitle } from './accountText';
import { carriedAnswers, stateText, useNavigationState, useReturnTo } from './navigation';
import { PasswordField } from '../../components/form/PasswordField';
import { StateMessages } from './StateMessages';
import { EmailField } from './EmailField';
import { useCardToasts } from './useCardToasts';
import { useResendCode } from './ResendCode';
import { fieldError, useAccountForm } from '../../components/form/useAccountForm';
import { useStore } from '@tanstack/react-form';

export function LoginCard() {
  const state = useNavigationState();
  const studentAnswers = carriedAnswers(state);
  const next = useReturnTo();
  const navigate = useNavigate();
  const login = useLogin();
  const queryClient = useQueryClient();
  const { showError } = useCardToasts();

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

  const resend = useResendCode({
    username,
    focusInvalid,
    onSent: (message, sentTo) =>
      void navigate({
        to: '/confirm',
        search: { next },
        state: { username: sentTo, successMessage: message, studentAnswers },
      }),
  });

  return (
    <AccountCard
      title={accountText.titles.login}
      onSubmit={() => {
        resend.clearError();
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
          {resend.button}
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
              resend.clearError();
            }}
            error={resend.error ?? (submitted ? fieldError(field.state.meta) : undefined)}
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
