/** SPEC 2.5 Forgot Password (/forgot): e-mail; on success a closable toast with the server's message. */
import { forgotBody } from '#contract';
import { useForgotPassword } from './api/forgotPassword';
import styles from './account.module.css';
import { AccountCard } from './AccountCard';
import { accountText, cardErrorTitle } from './accountText';
import { carriedAnswers, stateText, useNavigationState } from './navigation';
import { StateMessages } from './StateMessages';
import { EmailField } from './EmailField';
import { useCardToasts } from './useCardToasts';
import { fieldError, useAccountForm } from '../../components/form/useAccountForm';

export function ForgotCard() {
  const state = useNavigationState();
  const studentAnswers = carriedAnswers(state);
  const forgot = useForgotPassword();
  const { showError, showSuccess } = useCardToasts();

  const { form, formRef, submitted, submit } = useAccountForm({
    defaultValues: { username: stateText(state.username) ?? '' },
    parse: ({ username }) => forgotBody.safeParse({ username: username.trim() }),
    onValid: (body) =>
      forgot.mutate(body, {
        onSuccess: ({ message }) => showSuccess(message),
        onError: (error) => showError(cardErrorTitle('forgot'), error),
      }),
  });

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
      <form.Field name="username">
        {(field) => (
          <EmailField
            value={field.state.value}
            onValueChange={field.handleChange}
            error={submitted ? fieldError(field.state.meta) : undefined}
          />
        )}
      </form.Field>
    </AccountCard>
  );
}
