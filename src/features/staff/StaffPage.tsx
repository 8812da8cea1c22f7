/** `/staff/staff` (admins): invite a colleague as reader or admin, see everyone, disable an account. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '#contract';
import {
  STAFF_ROLES,
  staffInviteBody,
  staffList,
  staffMessages,
  type StaffRole,
} from '#contract/staff.ts';
import { fieldError, useAccountForm } from '../../components/form/useAccountForm';
import { staffCall } from './api';
import { useMe } from './session';
import styles from './staff.module.css';
import { day, Failure, Notice, Select, TableFrame, useStaffTitle } from './ui';
import { TextField } from '../../components/form/TextField';

const ROLE_OPTIONS = STAFF_ROLES.map((role) => [role, role] as const);

export function StaffPage() {
  useStaffTitle('Staff');
  const isAdmin = useMe().data?.role === 'admin';
  return (
    <section aria-labelledby="staff-members">
      <h1 id="staff-members" className={styles.title}>
        Staff
      </h1>
      {isAdmin ? (
        <>
          <Invite />
          <Members />
        </>
      ) : (
        <Failure error={staffMessages.forbidden} />
      )}
    </section>
  );
}

const membersKey = ['staff', 'members'];

function Invite() {
  const queryClient = useQueryClient();
  const invite = useMutation({
    mutationFn: (body: { email: string; role: StaffRole }) =>
      staffCall(messageResponse, '/invitations', { method: 'POST', body }),
    onSuccess: () => {
      form.reset();
      void queryClient.invalidateQueries({ queryKey: membersKey });
    },
  });
  const { form, formRef, submitted, submit } = useAccountForm({
    defaultValues: { email: '', role: 'reader' as string },
    parse: ({ email, role }) => staffInviteBody.safeParse({ email: email.trim(), role }),
    onValid: (body) => invite.mutate(body),
  });
  return (
    <form
      ref={formRef}
      noValidate
      aria-labelledby="staff-invite"
      className={styles.panel}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h2 id="staff-invite" className={styles.subtitle}>
        Invite a colleague
      </h2>
      <div className={styles.bar}>
        <form.Field name="email">
          {(field) => (
            <TextField
              label="E-mail address"
              type="email"
              value={field.state.value}
              onValueChange={field.handleChange}
              error={submitted ? fieldError(field.state.meta) : undefined}
            />
          )}
        </form.Field>
        <form.Field name="role">
          {(field) => (
            <Select<StaffRole>
              label="Role"
              value={field.state.value as StaffRole}
              options={ROLE_OPTIONS}
              onValueChange={field.handleChange}
            />
          )}
        </form.Field>
        <button type="submit" className={styles.primary} disabled={invite.isPending}>
          Invite
        </button>
      </div>
      <Failure error={invite.error} />
      {invite.data ? <Notice>{invite.data.message}</Notice> : null}
    </form>
  );
}

function Members() {
  const queryClient = useQueryClient();
  const me = useMe().data;
  const staff = useQuery({ queryKey: membersKey, queryFn: () => staffCall(staffList, '/staff') });
  const disable = useMutation({
    mutationFn: (id: string) =>
      staffCall(messageResponse, `/staff/${id}/disable`, { method: 'POST', body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: membersKey }),
  });
  return (
    <>
      <h2 className={styles.subtitle}>Everyone with access</h2>
      <Failure error={staff.error ?? disable.error} />
      <TableFrame label="Staff members">
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">State</th>
              <th scope="col">Since</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {staff.data?.staff.map((member) => (
              <tr key={member.id}>
                <td>{member.email}</td>
                <td>{member.role}</td>
                <td>{member.state}</td>
                <td>{day(member.created_at)}</td>
                <td>
                  {member.state !== 'disabled' && member.email !== me?.email ? (
                    <button
                      type="button"
                      className={styles.secondary}
                      onClick={() => disable.mutate(member.id)}
                      disabled={disable.isPending}
                    >
                      Disable {member.email}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableFrame>
    </>
  );
}
