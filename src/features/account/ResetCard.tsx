/**
 * SPEC 2.5 Reset Password (/reset?username=&id=): the new password twice with the checklist and its
 * matching rule; on success, /login with the server's message.
 */
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import { accountMessages, resetBody } from '#contract';
import { useResetPassword } from './api/resetPassword';
import { AccountCard } from './AccountCard';
import { accountText, cardErrorTitle } from './accountText';
import { carriedAnswers, searchParam, stateText, useNavigationState } from './navigation';
import { PasswordChecklist } from '../../components/PasswordChecklist';
import { PasswordField } from '../../components/form/PasswordField';
import { StateMessages } from './StateMessages';
import { useCardToasts } from './useCardToasts';
import { fieldError, useAccountForm } from '../../components/form/useAccountForm';
import { useStore } from '@tanstack/react-form';

export function ResetCard() {
  const state = useNavigationState();
  const studentAnswers = carriedAnswers(state);
  const search = useSearch({ strict: false });
  const navigate = useNavigate();
  // SECURITY.md (URL tokens): the link's id and username are kept in memory and leave the address
  // bar at once, so they linger in neither history nor referrers.
  const [{ username, id }] = useState(() => ({
    username: searchParam(search, 'username'),
    id: searchParam(search, 'id'),
  }));
  const inAddress = searchParam(search, 'id') !== '' || searchParam(search, 'username') !== '';
  useEffect(() => {
    if (inAddress) void navigate({ to: '.', search: {}, replace: true, state: (s) => s });
  }, [inAddress, navigate]);
  const reset = useResetPassword();
  const { showError } = useCardToasts();
  const checklistId = useId();

  const { form, formRef, submitted, submit } = useAccountForm({
    defaultValues: { password: '', confirm_password: '' },
    parse: (values) => resetBody.safeParse({ username, id, ...values }),
    onValid: (body) =>
      reset.mutate(body, {
        onSuccess: ({ message }) =>
          void navigate({
            to: '/login',
            state: { successMessage: message, username: username || undefined, studentAnswers },
          }),
        onError: (error) => showError(cardErrorTitle('reset'), error),
      }),
  });
  const password = useStore(form.store, (formState) => formState.values.password);
  const confirmPassword = useStore(form.store, (formState) => formState.values.confirm_password);

  return (
    <AccountCard
      title={accountText.titles.reset}
      onSubmit={submit}
      pending={reset.isPending}
      footer={accountText.footers.reset}
      studentAnswers={studentAnswers}
      formRef={formRef}
      intro={
        <StateMessages
          errorMessage={id === '' ? accountMessages.resetIdMissing : stateText(state.errorMessage)}
          successMessage={stateText(state.successMessage)}
        />
      }
    >
      <form.Field name="password">
        {(field) => (
          <PasswordField
            label={accountText.labels.newPassword}
            name="password"
            autoComplete="new-password"
            value={field.state.value}
            onValueChange={field.handleChange}
            error={
              submitted || field.state.meta.isTouched ? fieldError(field.state.meta) : undefined
            }
            describedById={checklistId}
          />
        )}
      </form.Field>
      <form.Field name="confirm_password">
        {(field) => (
          <PasswordField
            label={accountText.labels.confirmPassword}
            name="confirm_password"
            autoComplete="new-password"
            value={field.state.value}
            onValueChange={field.handleChange}
            error={submitted ? fieldError(field.state.meta) : undefined}
            describedById={checklistId}
          />
        )}
      </form.Field>
      <PasswordChecklist id={checklistId} password={password} confirmPassword={confirmPassword} />
    </AccountCard>
  );
}
