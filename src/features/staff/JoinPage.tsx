/**
 * The invitation link's page (`/staff/join?token=`): which account is being set up (the address and
 * role the invitation was sent for, D157), then the password, with the applicant's checklist.
 */
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { staffMessages } from '#contract/staff.ts';
import { staffInvitationResponse, staffJoinBody } from '#contract/staffPassword.ts';
import { staffCall } from './api';
import { LinkRefused, PasswordCard, useLinkToken } from './PasswordCard';
import { ROLE_NAMES, useStaffTitle } from './ui';

const HEADING = 'Choose your password';

export function JoinPage() {
  useStaffTitle(HEADING);
  const token = useLinkToken();
  const navigate = useNavigate();
  const invitation = useQuery({
    queryKey: ['staff', 'invitation', token],
    queryFn: () =>
      staffCall(staffInvitationResponse, '/invitation', { method: 'POST', body: { token } }),
    enabled: token !== '',
    staleTime: Infinity,
  });
  if (!token) return <LinkRefused heading={HEADING} error={staffMessages.invitationInvalid} />;
  if (invitation.isPending) return <p role="status">Loading…</p>;
  if (!invitation.data) return <LinkRefused heading={HEADING} error={invitation.error} />;
  const { email, role } = invitation.data;
  return (
    <PasswordCard
      heading={HEADING}
      intro={
        <p data-testid="join-account">
          You are setting up the staff account <strong>{email}</strong>, as {ROLE_NAMES[role]}.
        </p>
      }
      token={token}
      path="/join"
      schema={staffJoinBody}
      submitLabel="Set password"
      onDone={() => void navigate({ to: '/staff', replace: true })}
    />
  );
}
