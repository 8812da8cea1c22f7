/**
 * SPEC 2.7: date-windowed alerts, shown only at or after their start and before their end, and only
 * until the application is submitted (a deadline means nothing to an applicant who has met it).
 */
import { deriveWebStatus } from '../../runtime';
import type { InstitutionFile } from '../../definitions/institutionFile';
import { institution } from '../tenant/tenantData';
import { useProfile } from '../features/application/api/profile';
import { useLoggedIn } from '../session/loggedIn';
import styles from './datedAlert.module.css';

export function activeAlerts(
  now: Date,
  alerts: InstitutionFile['alerts'] = institution.alerts,
): InstitutionFile['alerts'] {
  const time = now.getTime();
  return alerts.filter((alert) => Date.parse(alert.start) <= time && time < Date.parse(alert.end));
}

export function DatedAlerts({ now = new Date() }: { now?: Date }) {
  const alerts = activeAlerts(now);
  // Re-read at a login in this tab, so a submitted application's banner goes without a reload.
  const profile = useProfile(useLoggedIn()).data;
  const submitted = profile ? deriveWebStatus(profile.web_status) === 'submitted' : false;
  if (alerts.length === 0 || submitted) return null;
  return (
    <div className={styles.alerts}>
      {alerts.map((alert) => (
        <p key={alert.id} className={styles.alert} role="status">
          {alert.text}
        </p>
      ))}
    </div>
  );
}
