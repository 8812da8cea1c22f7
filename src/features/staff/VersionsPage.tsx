/**
 * `/staff/versions` (admins): the tenant's published form versions, newest first, and which one
 * applicants get now. A submitted application is read under its own version (D145).
 */
import { useQuery } from '@tanstack/react-query';
import { formVersions, staffMessages } from '#contract/staff.ts';
import { staffCall } from './api';
import { useMe } from './session';
import styles from './staff.module.css';
import { Failure, localTime, TableFrame, useStaffTitle } from './ui';

export function VersionsPage() {
  useStaffTitle('Form versions');
  const isAdmin = useMe().data?.role === 'admin';
  const versions = useQuery({
    queryKey: ['staff', 'versions'],
    queryFn: () => staffCall(formVersions, '/versions'),
    enabled: isAdmin,
  });
  return (
    <section aria-labelledby="staff-versions">
      <h1 id="staff-versions" className={styles.title}>
        Form versions
      </h1>
      <p>
        Applicants get the current version. A submitted application is always shown, printed and
        exported with the version it was submitted under.
      </p>
      <Failure error={isAdmin ? versions.error : staffMessages.forbidden} />
      {versions.data ? (
        <TableFrame label="Published versions">
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Published</th>
                <th scope="col">By</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {versions.data.versions.map((row) => (
                <tr key={row.version}>
                  <td>{row.version}</td>
                  <td>{localTime(row.published_at)}</td>
                  <td>{row.published_by}</td>
                  <td>{row.current ? 'Current' : 'Earlier'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableFrame>
      ) : null}
    </section>
  );
}
