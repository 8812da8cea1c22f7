/**
 * The console's small parts: a select, a failure message, a status line, a table's frame, the link
 * to an application. Its text
 * fields are the account screens' (`TextField`), and the select wears their look.
 */
import { Link } from '@tanstack/react-router';
import { useEffect, useId, type ReactNode } from 'react';
import type { LinkState, StaffRole } from '#contract/staff.ts';
import { collegeDay, collegeTime } from '#contract/collegeTime.ts';
import { institutionConfig } from '../../tenant/tenantData';
import fieldStyles from '../../components/form/form.module.css';
import styles from './staff.module.css';

export function Failure({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className={styles.error}>
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}

/**
 * A confirmation dialog's end: what went wrong, the action (held while it is pending) and the way
 * out, "Keep it".
 */
export function ConfirmActions({
  error,
  pending,
  label,
  onConfirm,
  onCancel,
}: {
  error: unknown;
  pending: boolean;
  label: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <>
      <Failure error={error} />
      <div className={styles.bar}>
        <button type="button" className={styles.primary} disabled={pending} onClick={onConfirm}>
          {label}
        </button>
        <button type="button" className={styles.secondary} onClick={onCancel}>
          Keep it
        </button>
      </div>
    </>
  );
}

/**
 * A table's scrolling frame: on a narrow screen the table scrolls sideways, so the frame is a named
 * region keyboard users can focus and scroll (axe: scrollable-region-focusable).
 */
export function TableFrame({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.tableWrap} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className={styles.notice}>
      {children}
    </p>
  );
}

export function Select<T extends string>({
  label,
  value,
  options,
  onValueChange,
}: {
  label: string;
  value: T | '';
  options: readonly (readonly [T | '', string])[];
  onValueChange: (value: T | '') => void;
}) {
  const id = useId();
  return (
    <div className={fieldStyles.field}>
      <label htmlFor={id} className={fieldStyles.label}>
        {label}
      </label>
      <select
        id={id}
        className={fieldStyles.input}
        value={value}
        onChange={(event) => onValueChange(event.target.value as T | '')}
      >
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The institution's time zone: the console's days and times are its (`time_zone`, or UTC). */
export const LOCAL_TIME_ZONE = institutionConfig.time_zone;

/** "2026-11-27": an instant's day in the institution's zone, the day the list's filters take. */
export const day = (iso: string | null) => (iso ? collegeDay(iso, LOCAL_TIME_ZONE) : '');

/** "November 27, 2026, 12:30 PM EST": a time in the institution's zone, the zone said (D197). */
export const localTime = (iso: string) => collegeTime(iso, LOCAL_TIME_ZONE);

/** "Applications – Staff – Northfield College": each console screen's document title. */
export function useStaffTitle(screen: string): void {
  useEffect(() => {
    document.title = `${screen} – Staff – ${institutionConfig.partner_name}`;
  }, [screen]);
}

/** A service link's state, as the console says it. */
export const LINK_STATE_TEXT: Record<LinkState, string> = {
  live: 'Live',
  expired: 'Expired',
  revoked: 'Revoked',
};

/** An application's name as a link to its view; an applicant who has not given a name yet says so. */
export function ApplicationLink({ id, name }: { id: string; name: string }) {
  return (
    <Link to="/staff/applications/$id" params={{ id }} className={styles.link}>
      {name || '(no name yet)'}
    </Link>
  );
}

/** Each role as the console names it to a person. */
export const ROLE_NAMES: Record<StaffRole, string> = {
  reader: 'a reader',
  admin: 'an administrator',
};
