/**
 * SECURITY.md REQ-R-1: "Saved", "Saving…" or "Not saved — retrying", announced politely. The line
 * keeps its height when empty, so the buttons never move.
 */
import { autosaveText } from '#contract/words.ts';
import styles from './application.module.css';
import { useSessionState } from './ApplicationLayout';

export function SaveStatus() {
  const state = useSessionState((session) => session.saveState);
  const text = state === 'idle' ? '' : autosaveText[state];
  return (
    <p className={styles.saveStatus} data-state={state} role="status" aria-live="polite">
      {text}
    </p>
  );
}
