/**
 * SPEC 2.3: the validation error summary, an alert region shown while validating and errors exist,
 * grouped by page, each message linking to /<page>#<key>.
 */
import { Link } from '@tanstack/react-router';
import { pageOfKey } from '#runtime';
import { errorSummary, notices } from '#contract/words.ts';
import { useApplication, useSessionState, useSnapshot } from './ApplicationLayout';
import styles from './application.module.css';

/** The summary's id: a submit with errors moves focus to it. */
export const ERROR_SUMMARY_ID = 'error-summary';

export function ErrorSummary() {
  const { definition } = useApplication();
  const snapshot = useSnapshot();
  const all = useSessionState((state) => state.errors);
  const keys = Object.keys(all);
  if (snapshot.web_status !== 'validating' || keys.length === 0) return null;
  const groups = definition.pages
    .map((page) => ({
      page,
      keys: keys.filter((key) => pageOfKey(definition, key)?.id === page.id),
    }))
    .filter((group) => group.keys.length > 0);
  const orphans = keys.filter((key) => !pageOfKey(definition, key));
  if (orphans.length > 0) console.warn(`${notices.summaryNoPage} Keys: ${orphans.join(', ')}`);
  return (
    <div
      id={ERROR_SUMMARY_ID}
      className={styles.summary}
      role="alert"
      aria-labelledby="error-summary-title"
      tabIndex={-1}
    >
      <h2 id="error-summary-title" className={styles.summaryTitle}>
        {errorSummary.title}
      </h2>
      <p>{errorSummary.text}</p>
      {groups.map(({ page, keys: pageKeys }) => (
        <section key={page.id} aria-label={page.title}>
          <h3 className={styles.summaryPage}>{page.title}</h3>
          <ul className={styles.summaryList}>
            {pageKeys.flatMap((key) =>
              (all[key] ?? []).map((message) => (
                <li key={`${key}:${message}`}>
                  <ErrorIcon />
                  {/* The page brings the whole question into view (not the router's top edge). */}
                  <Link to={page.path} hash={key} hashScrollIntoView={false}>
                    {message}
                  </Link>
                </li>
              )),
            )}
          </ul>
        </section>
      ))}
      {orphans.length > 0 ? (
        <ul className={styles.summaryList}>
          {orphans.flatMap((key) =>
            (all[key] ?? []).map((message) => (
              <li key={`${key}:${message}`}>
                <ErrorIcon />
                {message}
              </li>
            )),
          )}
        </ul>
      ) : null}
    </div>
  );
}

function ErrorIcon() {
  return (
    <svg className={styles.icon} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <circle cx="10" cy="10" r="9" fill="currentColor" />
      <rect x="9" y="4.5" width="2" height="7" fill="#fff" />
      <rect x="9" y="13.5" width="2" height="2" fill="#fff" />
    </svg>
  );
}
