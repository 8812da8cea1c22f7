/**
 * The service links of one application: mint one for a reviewer, list them, revoke (admins, after a
 * confirmation).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { mintedLink, serviceLinkList } from '#contract/staff.ts';
import { staffCall } from './api';
import styles from './staff.module.css';
import { RevokeLinkDialog, useLinkRevocation } from './RevokeLink';
import { Failure, LINK_STATE_TEXT, localTime, Notice } from './ui';

export function ServiceLinks({ id, isAdmin }: { id: string; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const key = ['staff', 'links', id];
  const links = useQuery({
    queryKey: key,
    queryFn: () => staffCall(serviceLinkList, `/applications/${id}/links`),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const mint = useMutation({
    mutationFn: () =>
      staffCall(mintedLink, `/applications/${id}/links`, { method: 'POST', body: {} }),
    onSuccess: refresh,
  });
  const revocation = useLinkRevocation({ focusAfter: 'staff-links', onRevoked: refresh });
  const { revoke } = revocation;
  const rows = links.data?.links ?? [];
  return (
    <section aria-labelledby="staff-links">
      <h2 id="staff-links" className={styles.subtitle} tabIndex={-1}>
        Service links
      </h2>
      <p>A link lets a reviewer without an account read this application for one hour.</p>
      <button
        type="button"
        className={styles.secondary}
        onClick={() => mint.mutate()}
        disabled={mint.isPending}
      >
        Make a link for a reviewer
      </button>
      {mint.data ? (
        <p role="status">
          New link (valid 1 hour): <code className={styles.mono}>{mint.data.url}</code>
        </p>
      ) : null}
      {revoke.data ? <Notice>{revoke.data.message}</Notice> : null}
      <Failure error={mint.error ?? links.error} />
      {rows.length > 0 ? (
        <ul>
          {rows.map((link) => (
            <li key={link.id}>
              {LINK_STATE_TEXT[link.state]}: made by {link.created_by ?? 'a removed account'}, valid
              until {localTime(link.expires_at)},{' '}
              {link.opened_at ? `last opened ${localTime(link.opened_at)}` : 'never opened'}{' '}
              {isAdmin && link.state === 'live' ? (
                <button
                  type="button"
                  className={styles.secondary}
                  aria-haspopup="dialog"
                  onClick={(event) =>
                    revocation.ask({ id: link.id, applicantId: id }, event.currentTarget)
                  }
                >
                  Revoke
                  <span className="visually-hidden">
                    {' '}
                    the link valid until {localTime(link.expires_at)}
                  </span>
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <RevokeLinkDialog revocation={revocation} />
    </section>
  );
}
