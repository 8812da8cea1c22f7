/**
 * The staff reset link's page (`/staff/reset?token=`, D166): a new password with the applicant's
 * checklist. The authenticator app stays set up, so signing in afterwards still asks for its code.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { staffPasswordMessages, staffResetBody } from '#contract/staffPassword.ts';
import { LinkRefused, PasswordCard, useLinkToken } from './PasswordCard';
import { meKey } from './session';
import styles from './staff.module.css';
import { Notice, useStaffTitle } from './ui';

const HEADING = 'Choose a new password';

export function ResetPage() {
  useStaffTitle(HEADING);
  const token = useLinkToken();
  const queryClient = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  if (done)
    return (
      <section className={styles.card} aria-labelledby="staff-reset-done">
        <h1 id="staff-reset-done">Password reset</h1>
        <Notice>{done}</Notice>
        <Link to="/staff/login" className={styles.primary}>
          Sign in
        </Link>
      </section>
    );
  if (!staffResetBody.shape.token.safeParse(token).success)
    return <LinkRefused heading={HEADING} error={staffPasswordMessages.resetFailed} />;
  return (
    <PasswordCard
      heading={HEADING}
      intro={<p>Your authenticator app stays set up: you will still enter its code to sign in.</p>}
      token={token}
      path="/reset-password"
      schema={staffResetBody}
      submitLabel="Set new password"
      onDone={(message) => {
        // Every session of the account has ended: this browser's too.
        queryClient.setQueryData(meKey, null);
        setDone(message);
      }}
    />
  );
}
