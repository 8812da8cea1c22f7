/** The console's small parts: a labelled field, a failure message, a status line. */
import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
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

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Shown under the input and linked to it. */
  error?: string;
}

export function Field({ label, value, onValueChange, error, ...input }: FieldProps) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input
        {...input}
        id={id}
        className={styles.input}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p id={`${id}-error`} className={styles.fieldError}>
          {error}
        </p>
      ) : null}
    </div>
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
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className={styles.input}
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

export const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '');
export const minute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
