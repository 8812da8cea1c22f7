/** The service links of one application: mint one for a reviewer, list them, revoke (admins). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '../../../contract';
import { mintedLink, serviceLinkList } from '../../../contract/staff';
import { staffCall } from './api';
import styles from './staff.module.css';
import { Failure, LINK_STATE_TEXT, minute } from './ui';

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
  const revoke = useMutation({
    mutationFn: (tokenId: string) =>
      staffCall(messageResponse, `/applications/${id}/links/${tokenId}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  const rows = links.data?.links ?? [];
  return (
    <section aria-labelledby="staff-links">
      <h2 id="staff-links" className={styles.subtitle}>
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
      <Failure error={mint.error ?? revoke.error ?? links.error} />
      {rows.length > 0 ? (
        <ul>
          {rows.map((link) => (
            <li key={link.id}>
              {LINK_STATE_TEXT[link.state]}: made by {link.created_by ?? 'a removed account'}, valid
              until {minute(link.expires_at)},{' '}
              {link.opened_at ? `last opened ${minute(link.opened_at)}` : 'never opened'}{' '}
              {isAdmin && link.state === 'live' ? (
                <button
                  type="button"
                  className={styles.secondary}
                  onClick={() => revoke.mutate(link.id)}
                  disabled={revoke.isPending}
                >
                  Revoke
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
