/** The full-screen loading state (SPEC 2.2): a spinner announced as "Loading…". */
import styles from './chrome.module.css';
import { chromeText } from './chromeText';

export function LoadingScreen() {
  return (
    <div className={styles.loadingScreen} role="status">
      <span className={styles.loadingSpinner} aria-hidden="true" />
      <span className="visually-hidden">{chromeText.loading}</span>
    </div>
  );
}
