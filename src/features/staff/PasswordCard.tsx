/**
 * The console's "choose a password" card, for an invitation (`JoinPage`) and a reset link
 * (`ResetPage`): the new password with the applicant's live checklist (the same rules the server
 * checks), sent with the link's token.
 */
import { useStore } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { messageResponse } from '#contract';
import type { staffJoinBody, staffResetBody } from '#contract/staffPassword.ts';
import { PasswordChecklist } from '../../components/PasswordChecklist';
import { PasswordField } from '../../components/form/PasswordField';
import { fieldError, useAccountForm } from '../../components/form/useAccountForm';
import { staffCall } from './api';
import styles from './staff.module.css';
import { Failure } from './ui';

/**
 * The link's token, kept in memory: it leaves the address bar at once, so it lingers in neither
 * history nor referrers (SECURITY.md, URL tokens), as the applicant's reset link does.
 */
export function useLinkToken(): string {
  const search = useSearch({ strict: false });
  const navigate = useNavigate();
  const inAddress = typeof search.token === 'string' ? search.token : '';
  const [token] = useState(inAddress);
  useEffect(() => {
    if (inAddress) void navigate({ to: '.', search: {}, replace: true });
  }, [inAddress, navigate]);
  return token;
}

/** A card whose only content is why a link cannot be used. */
export function LinkRefused({ heading, error }: { heading: string; error: unknown }) {
  return (
    <section className={styles.card} aria-labelledby="staff-link">
      <h1 id="staff-link">{heading}</h1>
      <Failure error={error} />
    </section>
  );
}

export function PasswordCard({
  heading,
  intro,
  token,
  path,
  schema,
  submitLabel,
  onDone,
}: {
  heading: string;
  intro: ReactNode;
  token: string;
  path: '/join' | '/reset-password';
  /** The call's body: the link's token and the new password, by the applicant's rules. */
  schema: typeof staffJoinBody | typeof staffResetBody;
  submitLabel: string;
  onDone: (message: string) => void;
}) {
  const checklistId = useId();
  const send = useMutation({
    mutationFn: (body: { token: string; password: string }) =>
      staffCall(messageResponse, path, { method: 'POST', body }),
    onSuccess: ({ message }) => onDone(message),
  });
  const { form, formRef, submitted, submit } = useAccountForm({
    defaultValues: { password: '' },
    parse: ({ password }) => schema.safeParse({ token, password }),
    onValid: (body) => send.mutate(body),
  });
  const password = useStore(form.store, (state) => state.values.password);
  return (
    <form
      ref={formRef}
      className={styles.card}
      noValidate
      aria-labelledby="staff-password"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h1 id="staff-password">{heading}</h1>
      {intro}
      <form.Field name="password">
        {(field) => (
          <PasswordField
            label="New password"
            name="password"
            autoComplete="new-password"
            value={field.state.value}
            onValueChange={field.handleChange}
            error={submitted ? fieldError(field.state.meta) : undefined}
            describedById={checklistId}
          />
        )}
      </form.Field>
      <PasswordChecklist id={checklistId} password={password} />
      <Failure error={send.error} />
      <button type="submit" className={styles.primary} disabled={send.isPending}>
        {submitLabel}
      </button>
    </form>
  );
}
