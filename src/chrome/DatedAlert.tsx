/**
 * SPEC 2.7: date-windowed alerts, shown only at or after their start and before their end, and only
 * until the application is submitted (a deadline means nothing to an applicant who has met it).
 * Whether it is submitted is the application's to say: the shell passes it (`submitted`).
 */
import type { InstitutionFile } from '../../definitions/institutionFile';
import { institution } from '../tenant/tenantData';
import styles from './datedAlert.module.css';

export function activeAlerts(
  now: Date,
  alerts: InstitutionFile['alerts'] = institution.alerts,
): InstitutionFile['alerts'] {
  const time = now.getTime();
  return alerts.filter((alert) => Date.parse(alert.start) <= time && time < Date.parse(alert.end));
}

export function DatedAlerts({ submitted, now = new Date() }: { submitted: boolean; now?: Date }) {
  const alerts = activeAlerts(now);
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
