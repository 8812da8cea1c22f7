/**
 * Signing in to the console: e-mail and password, then the second factor (the authenticator's code
 * or a recovery code), or at the first sign-in the authenticator's enrolment (`Enrolment.tsx`).
 * Forms on TanStack Form with the contract's schemas as validators.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { staffCodeBody, staffLoginBody, staffMeResponse, type StaffMe } from '#contract/staff.ts';
import { fieldError, useAccountForm } from '../../components/form/useAccountForm';
import { staffCall } from './api';
import { meKey } from './session';
import styles from './staff.module.css';
import { Failure, useStaffTitle } from './ui';
import { TextField } from '../../components/form/TextField';

export function SignIn({ notice }: { notice?: string }) {
  useStaffTitle('Sign in');
  const queryClient = useQueryClient();
  const login = useMutation({
    mutationFn: (body: { email: string; password: string }) =>
      staffCall(staffMeResponse, '/login', { method: 'POST', body }),
    onSuccess: (me) => queryClient.setQueryData(meKey, me),
  });
  const { form, formRef, submitted, submit } = useAccountForm({
    defaultValues: { email: '', password: '' },
    parse: ({ email, password }) => staffLoginBody.safeParse({ email: email.trim(), password }),
    onValid: (body) => login.mutate(body),
  });
  return (
    <form
      ref={formRef}
      className={styles.card}
      noValidate
      aria-labelledby="staff-sign-in"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h1 id="staff-sign-in">Sign in</h1>
      {notice ? <p>{notice}</p> : null}
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
      <form.Field name="password">
        {(field) => (
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            value={field.state.value}
            onValueChange={field.handleChange}
            error={submitted ? fieldError(field.state.meta) : undefined}
          />
        )}
      </form.Field>
      <Failure error={login.error} />
      <button type="submit" className={styles.primary} disabled={login.isPending}>
        Sign in
      </button>
      <Link to="/staff/forgot" className={styles.link}>
        Forgot password?
      </Link>
    </form>
  );
}

/** A form that sends one code to `path`; `onAccepted` gets the server's answer. */
export function CodeForm({
  heading,
  path,
  onAccepted,
  children,
}: {
  heading: string;
  path: '/enrolment' | '/verify';
  onAccepted: (answer: unknown) => void;
  children?: ReactNode;
}) {
  useStaffTitle(heading);
  const send = useMutation({
    mutationFn: (body: { code: string }) =>
      staffCall({ safeParse: (data: unknown) => ({ success: true, data }) }, path, {
        method: 'POST',
        body,
      }),
    onSuccess: onAccepted,
  });
  const { form, formRef, submitted, submit } = useAccountForm({
    defaultValues: { code: '' },
    parse: ({ code }) => staffCodeBody.safeParse({ code: code.trim() }),
    onValid: (body) => send.mutate(body),
  });
  return (
    <form
      ref={formRef}
      className={styles.card}
      noValidate
      aria-labelledby="staff-code"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h1 id="staff-code">{heading}</h1>
      {children}
      <form.Field name="code">
        {(field) => (
          <TextField
            label="Code"
            autoComplete="one-time-code"
            inputMode="text"
            value={field.state.value}
            onValueChange={field.handleChange}
            error={submitted ? fieldError(field.state.meta) : undefined}
          />
        )}
      </form.Field>
      <Failure error={send.error} />
      <button type="submit" className={styles.primary} disabled={send.isPending}>
        Continue
      </button>
    </form>
  );
}

export function Verify({ me }: { me: StaffMe }) {
  const queryClient = useQueryClient();
  return (
    <CodeForm
      heading="Enter your authenticator code"
      path="/verify"
      onAccepted={() => queryClient.setQueryData(meKey, { ...me, stage: 'signed-in' })}
    >
      <p>Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
    </CodeForm>
  );
}
