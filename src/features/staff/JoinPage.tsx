/** The invitation link's page (`/staff/join?token=`): choose a password (the applicant rules). */
import { useMutation } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { messageResponse } from '../../../contract';
import { staffJoinBody, staffMessages } from '../../../contract/staff';
import { fieldError, useAccountForm } from '../account/useAccountForm';
import { staffCall } from './api';
import styles from './staff.module.css';
import { Failure, useStaffTitle } from './ui';
import { TextField } from '../account/TextField';

const route = getRouteApi('/staff/join');

export function JoinPage() {
  useStaffTitle('Choose your password');
  const token = route.useSearch().token ?? '';
  const navigate = useNavigate();
  const join = useMutation({
    mutationFn: (body: { token: string; password: string }) =>
      staffCall(messageResponse, '/join', { method: 'POST', body }),
    onSuccess: () => void navigate({ to: '/staff', replace: true }),
  });
  const { form, formRef, submitted, submit } = useAccountForm({
    defaultValues: { password: '' },
    parse: ({ password }) => staffJoinBody.safeParse({ token, password }),
    onValid: (body) => join.mutate(body),
  });
  return (
    <form
      ref={formRef}
      className={styles.card}
      noValidate
      aria-labelledby="staff-join"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h1 id="staff-join">Choose your password</h1>
      <p>
        At least 12 characters, with upper and lower case letters, a number and a special character.
      </p>
      <form.Field name="password">
        {(field) => (
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            value={field.state.value}
            onValueChange={field.handleChange}
            error={submitted ? fieldError(field.state.meta) : undefined}
          />
        )}
      </form.Field>
      <Failure error={join.error ?? (token ? null : staffMessages.invitationInvalid)} />
      <button type="submit" className={styles.primary} disabled={join.isPending}>
        Set password
      </button>
    </form>
  );
}
