import { useId, useState } from 'react';
import { Icon } from '../../chrome/Icon';
import styles from './form.module.css';
import { formText } from './formText';
import { describedBy } from './describedBy';
import { FieldError } from './FieldError';

export interface PasswordFieldProps {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  name: string;
  error?: string;
  /** Further ids describing the input, e.g. the requirements checklist. */
  describedById?: string;
}

/** A password input with a show/hide toggle. The value is never trimmed. */
export function PasswordField({
  label,
  value,
  onValueChange,
  autoComplete,
  name,
  error,
  describedById,
}: PasswordFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const [visible, setVisible] = useState(false);
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <div className={styles.passwordWrap}>
        <input
          id={id}
          name={name}
          className={styles.input}
          type={visible ? 'text' : 'password'}
          autoComplete={autoComplete}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(error && errorId, describedById)}
        />
        <button
          type="button"
          className={styles.toggle}
          aria-pressed={visible}
          aria-controls={id}
          aria-label={visible ? formText.hidePassword : formText.showPassword}
          onClick={() => setVisible((shown) => !shown)}
        >
          <Icon name={visible ? 'eyeOff' : 'eye'} />
        </button>
      </div>
      {error ? <FieldError id={errorId} message={error} /> : null}
    </div>
  );
}
