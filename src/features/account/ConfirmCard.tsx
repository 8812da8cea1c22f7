/**
 * SPEC 2.5 Confirm Your Account (/confirm): the 6-digit code for the username received in
 * navigation state (an Email Address field when there is none); resend; on success, /login.
 */
import { useNavigate } from '@tanstack/react-router';
import { confirmBody } from '#contract';
import { useConfirm } from './api/confirm';
import styles from './account.module.css';
import { AccountCard } from './AccountCard';
import { accountText, cardErrorTitle } from './accountText';
import { carriedAnswers, stateText, useNavigationState, useReturnTo } from './navigation';
import { StateMessages } from './StateMessages';
import { EmailField } from './EmailField';
import { TextField } from '../../components/form/TextField';
import { useCardToasts } from './useCardToasts';
import { useResendCode } from './ResendCode';
import { fieldError, useAccountForm } from '../../components/form/useAccountForm';
import { useStore } from '@tanstack/react-form';

export function ConfirmCard() {
  const state = useNavigationState();
  const studentAnswers = carriedAnswers(state);
  const next = useReturnTo();
  const knownUsername = stateText(state.username);
  const navigate = useNavigate();
  const confirm = useConfirm();
  const { showError, showSuccess } = useCardToasts();

  const usernameOf = (email: string) => knownUsername ?? email.trim();
  const { form, formRef, focusInvalid, submitted, submit } = useAccountForm({
    defaultValues: { email: '', code: '' },
    parse: ({ email, code }) => {
      const result = confirmBody.safeParse({ username: usernameOf(email), code });
      // The schema names the e-mail `username`; the card's field is `email`.
      if (result.success) return result;
      const issues = result.error.issues.map((issue) =>
        issue.path[0] === 'username' ? { ...issue, path: ['email'] } : issue,
      );
      return { success: false, error: { issues } };
    },
    onValid: (body) =>
      confirm.mutate(body, {
        onSuccess: ({ message }) =>
          void navigate({
            to: '/login',
            search: { next },
            state: { successMessage: message, studentAnswers, username: body.username },
          }),
        onError: (error) => showError(cardErrorTitle('confirm'), error),
      }),
  });
  const username = usernameOf(useStore(form.store, (formState) => formState.values.email));

  const resend = useResendCode({ username, focusInvalid, onSent: showSuccess });

  return (
    <AccountCard
      title={accountText.titles.confirm}
      onSubmit={() => {
        resend.clearError();
        submit();
      }}
      pending={confirm.isPending}
      footer={accountText.footers.confirm}
      studentAnswers={studentAnswers}
      next={next}
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
      actions={resend.button}
    >
      {knownUsername ? null : (
        <form.Field name="email">
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
      )}
      <form.Field name="code">
        {(field) => (
          <TextField
            label={accountText.labels.code}
            hint={accountText.hints.code}
            name="code"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            value={field.state.value}
            onValueChange={(value) => field.handleChange(value.replace(/\s+/g, ''))}
            error={submitted ? fieldError(field.state.meta) : undefined}
          />
        )}
      </form.Field>
    </AccountCard>
  );
}
