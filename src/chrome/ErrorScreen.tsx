/**
 * SPEC 2.8: the root error screen, for the account screens and the form pages alike. It shows no
 * detail of the error (that goes to the log), only the two fixed sentences.
 */
import styles from './chrome.module.css';
import { chromeText } from './chromeText';

export { NotFoundOrErrorFallback } from './NotFoundOrErrorFallback';

const text = chromeText.errorScreen;

export function ErrorScreen() {
  return (
    <div className={styles.screen}>
      <div className={styles.screenPanel} role="alert">
        <h1 className={styles.screenHeading}>{text.heading}</h1>
        <p>{text.text}</p>
      </div>
    </div>
  );
}
