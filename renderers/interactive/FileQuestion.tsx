import type { QuestionRendererProps } from '../registry';
import { cx } from './classNames';
import { FieldSet, controlProps } from './Field';
import styles from './interactive.module.css';

export const ANONYMOUS_FILE_TEXT =
  'This question can be finished once you have created an account.';
export const FILE_ATTACHED_TEXT = 'Document attached';
export const FILE_SOON_TEXT = 'File upload will be available here soon.';

/**
 * A document question (SPEC 4.4). Uploads arrive later: for now it says why it waits (logged out),
 * that a document is attached, or offers a disabled "Choose file" button. The fieldset carries the
 * question's id so `#key` anchors reach it.
 */
export function FileQuestion({
  view,
  value,
  errors,
  ids,
  anonymous,
}: QuestionRendererProps<'file'>) {
  const { question } = view;
  const state = anonymous ? 'anonymous' : value === 'ANSWERED' ? 'attached' : 'empty';
  return (
    <FieldSet
      ids={ids}
      label={question.label}
      help={question.help}
      errors={errors}
      id={ids.input}
      tabIndex={-1}
      data-file={state}
      {...controlProps(ids, question.help, errors)}
    >
      {state === 'anonymous' ? <p className={styles.note}>{ANONYMOUS_FILE_TEXT}</p> : null}
      {state === 'attached' ? <p className={styles.note}>{FILE_ATTACHED_TEXT}</p> : null}
      {state === 'empty' ? (
        <div className={styles.inputRow}>
          <button type="button" className={cx(styles.button, styles.secondary)} disabled>
            Choose file
          </button>
          <p className={styles.note}>{FILE_SOON_TEXT}</p>
        </div>
      ) : null}
    </FieldSet>
  );
}
