/**
 * SECURITY.md REQ-R-2: answers changed in another tab or on another device are never overwritten
 * silently. For each one the applicant sees both versions and keeps one. Loaded on demand.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { autosaveText } from '#contract/words.ts';
import { labelOf, type Definition } from '#runtime';
import chrome from '../../chrome/chrome.module.css';
import type { Conflicts } from './autosave';
import styles from './application.module.css';

export interface ConflictDialogProps {
  definition: Definition;
  conflicts: Conflicts;
  onKeepMine: (key: string) => void;
  onKeepTheirs: (key: string) => void;
}

const shown = (value: unknown) =>
  value === null || value === undefined || value === '' ? autosaveText.empty : String(value);

export default function ConflictDialog({
  definition,
  conflicts,
  onKeepMine,
  onKeepTheirs,
}: ConflictDialogProps) {
  const keys = Object.keys(conflicts);
  return (
    <Dialog.Root open={keys.length > 0}>
      <Dialog.Portal>
        <Dialog.Overlay className={chrome.overlay} />
        <Dialog.Content
          className={chrome.dialog}
          aria-describedby="conflict-intro"
          // A choice is needed: Escape and clicks outside do not dismiss it.
          onEscapeKeyDown={(event) => event.preventDefault()}
          onPointerDownOutside={(event) => event.preventDefault()}
          onInteractOutside={(event) => event.preventDefault()}
        >
          <div className={chrome.dialogHeader}>
            <Dialog.Title className={chrome.dialogTitle}>{autosaveText.conflictTitle}</Dialog.Title>
          </div>
          <div className={chrome.dialogBody}>
            <p id="conflict-intro">{autosaveText.conflictIntro}</p>
            {keys.map((key) => {
              const label = labelOf(definition, key);
              const conflict = conflicts[key] as { mine: unknown; theirs: unknown };
              return (
                <section key={key} className={styles.conflict} aria-label={label}>
                  <h3 className={chrome.dialogSubheading}>{label}</h3>
                  <dl className={styles.conflictValues}>
                    <dt>{autosaveText.mine}</dt>
                    <dd>{shown(conflict.mine)}</dd>
                    <dt>{autosaveText.theirs}</dt>
                    <dd>{shown(conflict.theirs)}</dd>
                  </dl>
                  <div className={styles.conflictButtons}>
                    <button
                      type="button"
                      className={styles.secondary}
                      onClick={() => onKeepTheirs(key)}
                    >
                      {autosaveText.keepTheirs}
                    </button>
                    <button
                      type="button"
                      className={styles.primary}
                      onClick={() => onKeepMine(key)}
                    >
                      {autosaveText.keepMine}
                    </button>
                  </div>
                </section>
              );
            })}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
