/**
 * SPEC 2.8: the generic fallback "Unexpected Application Error!" with a status (400, 404, 405 have
 * their reason phrase) or the error's message.
 */
import styles from './chrome.module.css';
import { chromeText } from './chromeText';

const text = chromeText.fallback;

export interface NotFoundOrErrorFallbackProps {
  /** An HTTP-like status: 404 for an unknown page, 405, 400… */
  status?: number;
  error?: unknown;
}

export function fallbackDetail({ status, error }: NotFoundOrErrorFallbackProps): string {
  if (status !== undefined) {
    const reason = text.statusText[status];
    return reason ? `${status} ${reason}` : String(status);
  }
  if (error instanceof Error && error.message !== '') return error.message;
  if (typeof error === 'string' && error !== '') return error;
  return text.unknown;
}

export function NotFoundOrErrorFallback(props: NotFoundOrErrorFallbackProps) {
  return (
    <div className={styles.screen}>
      <div className={styles.screenPanel}>
        <h1 className={styles.screenHeading}>{text.heading}</h1>
        <p className={styles.screenDetail}>{fallbackDetail(props)}</p>
      </div>
    </div>
  );
}
