/** SPEC 2.3: Previous, Save, Save & Continue, and Submit on the last page. */
import { buttons } from '#contract/words.ts';
import { useApplication, useSessionState } from './ApplicationLayout';
import styles from './application.module.css';
import { SaveStatus } from './SaveStatus';

export function PageButtons({ path }: { path: string }) {
  // The session's actions show their own failures and never reject (D171): a click need not wait.
  const { definition, goTo, save, submit, loggedIn } = useApplication();
  const busy = useSessionState((state) => state.busy);
  const index = definition.pages.findIndex((page) => page.path === path);
  const previous = definition.pages[index - 1];
  const next = definition.pages[index + 1];
  return (
    <>
      <div className={styles.buttons}>
        {previous ? (
          <button
            type="button"
            className={styles.secondary}
            disabled={busy}
            onClick={() => void goTo(previous.path)}
          >
            <span aria-hidden="true">← </span>
            {buttons.previous}
          </button>
        ) : null}
        <button
          type="button"
          className={styles.secondary}
          disabled={busy}
          onClick={() => void save()}
        >
          {buttons.save}
        </button>
        {next ? (
          <button
            type="button"
            className={styles.primary}
            disabled={busy}
            onClick={() => void goTo(next.path)}
          >
            {buttons.saveAndContinue}
            <span aria-hidden="true"> →</span>
          </button>
        ) : (
          <button
            type="button"
            className={styles.primary}
            disabled={busy}
            aria-busy={busy}
            onClick={() => void submit()}
          >
            {buttons.submit}
          </button>
        )}
      </div>
      {loggedIn ? <SaveStatus /> : null}
    </>
  );
}
