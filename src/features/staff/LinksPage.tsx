/**
 * `/staff/links` (admins): every service link that is out, newest first, paged on the server: which
 * application, who made it, when, when it expires, when a reviewer last opened it, and its state in
 * words; a live link can be revoked after a confirmation. The page is in the URL (reload keeps it).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { linkPage, staffMessages } from '#contract/staff.ts';
import { staffCall } from './api';
import { linkQueryOf, queryString, searchOf } from './listSearch';
import { Pager } from './Pager';
import { RevokeLinkDialog, useLinkRevocation } from './RevokeLink';
import { useMe } from './session';
import styles from './staff.module.css';
import {
  ApplicationLink,
  Failure,
  LINK_STATE_TEXT,
  localTime,
  Notice,
  TableFrame,
  useStaffTitle,
} from './ui';

const route = getRouteApi('/staff/links');
const linksKey = ['staff', 'links', 'all'];

export function LinksPage() {
  useStaffTitle('Service links');
  const isAdmin = useMe().data?.role === 'admin';
  return (
    <section aria-labelledby="staff-all-links">
      <h1 id="staff-all-links" className={styles.title} tabIndex={-1}>
        Service links
      </h1>
      {isAdmin ? <Links /> : <Failure error={staffMessages.forbidden} />}
    </section>
  );
}

function Links() {
  const { query, problem } = linkQueryOf(route.useSearch());
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const api = queryString(query);
  const page = useQuery({
    queryKey: [...linksKey, api],
    queryFn: () => staffCall(linkPage, `/links?${api}`),
    placeholderData: (previous) => previous,
  });
  const revocation = useLinkRevocation({
    focusAfter: 'staff-all-links',
    onRevoked: () => queryClient.invalidateQueries({ queryKey: linksKey }),
  });
  const { revoke } = revocation;

  return (
    <>
      <p>
        Every link made for a reviewer without an account, newest first. A link opens one
        application, read-only, until it expires or is revoked.
      </p>
      {problem ? <Notice>{problem}</Notice> : null}
      {revoke.data ? <Notice>{revoke.data.message}</Notice> : null}
      <Failure error={page.error} />
      <TableFrame label="Service links table">
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Application</th>
              <th scope="col">State</th>
              <th scope="col">Made by</th>
              <th scope="col">Made</th>
              <th scope="col">Expires</th>
              <th scope="col">Last opened</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {page.data?.rows.map((link) => (
              <tr key={link.id}>
                <td>
                  <ApplicationLink id={link.applicant_id} name={link.applicant_name} />
                  <br />
                  {link.applicant_email}
                </td>
                <td>
                  <span className={styles.status} data-status={link.state}>
                    {LINK_STATE_TEXT[link.state]}
                  </span>
                </td>
                <td>{link.created_by ?? 'a removed account'}</td>
                <td className={styles.nowrap}>{localTime(link.created_at)}</td>
                <td className={styles.nowrap}>{localTime(link.expires_at)}</td>
                <td className={styles.nowrap}>
                  {link.opened_at ? localTime(link.opened_at) : 'Never'}
                </td>
                <td>
                  {link.state === 'live' ? (
                    <button
                      type="button"
                      className={styles.secondary}
                      aria-haspopup="dialog"
                      onClick={(event) =>
                        revocation.ask(
                          {
                            id: link.id,
                            applicantId: link.applicant_id,
                            applicantLabel: link.applicant_name || link.applicant_email,
                          },
                          event.currentTarget,
                        )
                      }
                    >
                      Revoke
                      <span className="visually-hidden">
                        {' '}
                        the link to {link.applicant_name || link.applicant_email}
                      </span>
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableFrame>
      {page.data ? (
        <Pager
          page={page.data}
          empty="No service links"
          onGo={(position) => void navigate({ to: '/staff/links', search: searchOf(position) })}
        />
      ) : null}
      <RevokeLinkDialog revocation={revocation} />
    </>
  );
}
