/**
 * SPEC 2.5 Reset Password (/reset?username=&id=): the new password twice with the checklist and its
 * matching rule; on success, /login with the server's message.
 */
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import { accountMessages, resetBody } from '../../../contract';
import { useResetPassword } from './api/resetPassword';
import { AccountCard } from './AccountCard';
import { accountText, cardErrorTitle } from './accountText';
import { carriedAnswers, searchParam, stateText, useNavigationState } from './navigation';
import { PasswordChecklist } from './PasswordChecklist';
import { PasswordField } from './PasswordField';
import { StateMessages } from './StateMessages';
import { useCardToasts } from './useCardToasts';
import { useCardSubmit } from './useCardSubmit';

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

  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [passwordTouched, setPasswordTouched] = useState(false);

  const result = resetBody.safeParse({ username, password, confirm_password: confirmPassword, id });
  const { formRef, submitted, errors, attempt } = useCardSubmit(result);
  const shown = {
    password: submitted || passwordTouched ? errors.password : undefined,
    confirm_password: submitted ? errors.confirm_password : undefined,
  };

  const submit = () => {
    attempt((body) =>
      reset.mutate(body, {
        onSuccess: ({ message }) =>
          void navigate({
            to: '/login',
            state: { successMessage: message, username: username || undefined, studentAnswers },
          }),
        onError: (error) => showError(cardErrorTitle('reset'), error),
      }),
    );
  };

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
      <PasswordField
        label={accountText.labels.newPassword}
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
      <PasswordField
        label={accountText.labels.confirmPassword}
        name="confirm_password"
        autoComplete="new-password"
        value={confirmPassword}
        onValueChange={setConfirmPassword}
        error={shown.confirm_password}
        describedById={checklistId}
      />
      <PasswordChecklist id={checklistId} password={password} confirmPassword={confirmPassword} />
    </AccountCard>
  );
}
