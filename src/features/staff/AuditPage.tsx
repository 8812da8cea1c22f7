/** `/staff/audit` (admins): the newest audit entries, who did what to which application, and when. */
import { useQuery } from '@tanstack/react-query';
import { auditPage, staffMessages } from '../../../contract/staff';
import { staffCall } from './api';
import { useMe } from './session';
import styles from './staff.module.css';
import { Failure, minute, TableFrame, useStaffTitle } from './ui';

export function AuditPage() {
  useStaffTitle('Audit log');
  const isAdmin = useMe().data?.role === 'admin';
  const audit = useQuery({
    queryKey: ['staff', 'audit'],
    queryFn: () => staffCall(auditPage, '/audit'),
    enabled: isAdmin,
  });
  return (
    <section aria-labelledby="staff-audit">
      <h1 id="staff-audit" className={styles.title}>
        Audit log
      </h1>
      <Failure error={isAdmin ? audit.error : staffMessages.forbidden} />
      {audit.data ? (
        <TableFrame label="Audit log entries">
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Applicant</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {audit.data.entries.map((entry, index) => (
                <tr key={index}>
                  <td>{minute(entry.at)}</td>
                  <td>{entry.actor}</td>
                  <td>{entry.action}</td>
                  <td className={styles.mono}>{entry.applicant_id ?? ''}</td>
                  <td>{entry.detail ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableFrame>
      ) : null}
    </section>
  );
}
