/**
 * `/staff/forgot` (D166): the address of a staff account, to mail it a reset link. The answer is
 * the same whether or not the address has an account.
 */
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { messageResponse } from '#contract';
import { staffForgotBody } from '#contract/staffPassword.ts';
import { TextField } from '../../components/form/TextField';
import { fieldError, useAccountForm } from '../../components/form/useAccountForm';
import { staffCall } from './api';
import styles from './staff.module.css';
import { Failure, Notice, useStaffTitle } from './ui';

export function ForgotPage() {
  useStaffTitle('Forgot password');
  const ask = useMutation({
    mutationFn: (body: { email: string }) =>
      staffCall(messageResponse, '/forgot-password', { method: 'POST', body }),
  });
  const { form, formRef, submitted, submit } = useAccountForm({
    defaultValues: { email: '' },
    parse: ({ email }) => staffForgotBody.safeParse({ email: email.trim() }),
    onValid: (body) => ask.mutate(body),
  });
  return (
    <form
      ref={formRef}
      className={styles.card}
      noValidate
      aria-labelledby="staff-forgot"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h1 id="staff-forgot">Forgot password</h1>
      <p>
        Enter the e-mail address you sign in with. We will send it a link to choose a new password;
        your authenticator app stays set up.
      </p>
      <form.Field name="email">
        {(field) => (
          <TextField
            label="E-mail address"
            type="email"
            autoComplete="username"
            value={field.state.value}
            onValueChange={field.handleChange}
            error={submitted ? fieldError(field.state.meta) : undefined}
          />
        )}
      </form.Field>
      {ask.data ? <Notice>{ask.data.message}</Notice> : null}
      <Failure error={ask.error} />
      <button type="submit" className={styles.primary} disabled={ask.isPending}>
        Send reset link
      </button>
      <Link to="/staff/login" className={styles.link}>
        Back to sign in
      </Link>
    </form>
  );
}
