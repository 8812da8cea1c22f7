import { Icon } from '../../chrome/Icon';
import styles from './account.module.css';

export interface StateMessagesProps {
  errorMessage?: string;
  successMessage?: string;
}

/**
 * The messages a card received (SPEC 2.5), e.g. "Your session is invalid…" after a 401: the error
 * as an alert, the success as a status message.
 */
export function StateMessages({ errorMessage, successMessage }: StateMessagesProps) {
  return (
    <>
      {errorMessage ? (
        <div role="alert" className={styles.message} data-severity="error">
          <Icon name="alert" className={styles.messageIcon} />
          <p>{errorMessage}</p>
        </div>
      ) : null}
      {successMessage ? (
        <div role="status" className={styles.message} data-severity="success">
          <Icon name="checkCircle" className={styles.messageIcon} />
          <p>{successMessage}</p>
        </div>
      ) : null}
    </>
  );
}
