/** SPEC 2.7: date-windowed alerts, shown only at or after their start and before their end. */
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

export function DatedAlerts({ now = new Date() }: { now?: Date }) {
  const alerts = activeAlerts(now);
  if (alerts.length === 0) return null;
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
