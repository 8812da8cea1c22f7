/**
 * SECURITY.md REQ-R-1: "Saved", "Saving…" or "Not saved — retrying", announced politely. The line
 * keeps its height when empty, so the buttons never move.
 */
import { autosaveText } from '../../../definitions';
import styles from './application.module.css';
import { useSaveState, type SaveStatusStore } from './saveStatus';

export function SaveStatus({ store }: { store: SaveStatusStore }) {
  const state = useSaveState(store);
  const text = state === 'idle' ? '' : autosaveText[state];
  return (
    <p className={styles.saveStatus} data-state={state} role="status" aria-live="polite">
      {text}
    </p>
  );
}
