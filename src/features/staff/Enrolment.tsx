/** The first sign-in: the authenticator app's key as a QR code, its first code, the recovery codes. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { enrolmentResponse, recoveryCodesResponse, type StaffMe } from '#contract/staff.ts';
import { staffCall } from './api';
import { RecoveryCodes } from './RecoveryCodes';
import { meKey } from './session';
import { CodeForm } from './SignIn';
import styles from './staff.module.css';
import { Failure, useStaffTitle } from './ui';

export function Enrolment({ me }: { me: StaffMe }) {
  const queryClient = useQueryClient();
  const enrolment = useQuery({
    queryKey: ['staff', 'enrolment'],
    queryFn: () => staffCall(enrolmentResponse, '/enrolment'),
    staleTime: Infinity,
  });
  const [codes, setCodes] = useState<string[] | null>(null);
  // After the code form's own title, which it sets first (a child's effect runs before ours).
  useStaffTitle(codes ? 'Your recovery codes' : 'Set up your authenticator app');
  if (codes)
    return (
      <section className={styles.card} aria-labelledby="staff-recovery">
        <h1 id="staff-recovery">Your recovery codes</h1>
        <p>Keep these codes somewhere safe. Each signs you in once if your phone is not at hand.</p>
        <RecoveryCodes email={me.email} codes={codes} />
        <button
          type="button"
          className={styles.primary}
          onClick={() => queryClient.setQueryData(meKey, { ...me, stage: 'signed-in' })}
        >
          I have kept them
        </button>
      </section>
    );
  return (
    <CodeForm
      heading="Set up your authenticator app"
      path="/enrolment"
      onAccepted={(data) => setCodes(recoveryCodesResponse.parse(data).recovery_codes)}
    >
      <p>Scan this code with an authenticator app, then enter the 6-digit code it shows.</p>
      {enrolment.data ? (
        <>
          <img
            className={styles.qr}
            alt="QR code for your authenticator app"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.data.svg)}`}
          />
          <p>
            Or type this key: <TotpKey secret={enrolment.data.secret} />
          </p>
        </>
      ) : (
        <Failure error={enrolment.error} />
      )}
    </CodeForm>
  );
}

/**
 * The key in groups of four, for reading and typing. The groups are apart by their margins, not by
 * spaces, so the key copied from the page has none.
 */
export function TotpKey({ secret }: { secret: string }) {
  return (
    <code className={styles.mono} data-testid="totp-secret">
      {secret.match(/.{1,4}/g)?.map((group, index) => (
        <span key={index} className={styles.keyGroup}>
          {group}
        </span>
      ))}
    </code>
  );
}
