import { useId } from 'react';
import type { InputHTMLAttributes } from 'react';
import styles from './form.module.css';
import { describedBy } from './describedBy';
import { FieldError } from './FieldError';

export interface TextFieldProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'onChange' | 'id' | 'children'
> {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** The field's message; marks the input invalid and describes it. */
  error?: string;
  /** A hint shown under the label, also describing the input. */
  hint?: string;
}

export function TextField({ label, value, onValueChange, error, hint, ...input }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      <input
        {...input}
        id={id}
        className={styles.input}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(error && errorId, hint && hintId)}
      />
      {error ? <FieldError id={errorId} message={error} /> : null}
    </div>
  );
}
