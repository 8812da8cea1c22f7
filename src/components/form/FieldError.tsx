import { Icon } from '../../chrome/Icon';
import styles from './form.module.css';

/** A field's message, shown under its input and linked to it by `aria-describedby`. */
export function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} className={styles.fieldError}>
      <Icon name="alert" className={styles.fieldErrorIcon} />
      <span>{message}</span>
    </p>
  );
}
