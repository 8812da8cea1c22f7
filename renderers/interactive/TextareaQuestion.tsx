import { textLength, truncateToLength } from '../../runtime';
import type { QuestionRendererProps } from '../registry';
import { Field, controlProps } from './Field';
import styles from './interactive.module.css';
import { textOf } from './values';

/** SPEC 5.7: 6 rows by default (the character limit comes on the view). */
export const TEXTAREA_ROWS = 6;

/**
 * A text area with a character count. The count is not a live region (it would speak on every key
 * stroke); it is part of the description, so it is read when the field is reached. Characters are
 * what the applicant sees (an emoji is one), as the server counts them: the native `maxlength`
 * counts code units, so the limit is kept here instead, cutting a paste at the limit as it would.
 */
export function TextareaQuestion({
  view,
  value,
  onValueChange,
  onBlur,
  errors,
  ids,
}: QuestionRendererProps<'textarea'>) {
  const { question } = view;
  const text = textOf(value);
  const limit = view.maxLength ?? Number.POSITIVE_INFINITY;
  const countId = `${ids.input}--count`;
  return (
    <Field
      ids={ids}
      label={question.label}
      required={view.required}
      help={question.help}
      errors={errors}
    >
      <textarea
        id={ids.input}
        name={view.key}
        className={styles.textarea}
        value={text}
        rows={question.rows ?? TEXTAREA_ROWS}
        onChange={(event) => onValueChange(truncateToLength(event.target.value, limit))}
        onBlur={onBlur}
        aria-required={view.required || undefined}
        {...controlProps(ids, question.help, errors, countId)}
      />
      <p id={countId} className={styles.counter}>
        Character count: {textLength(text)} / {limit}
      </p>
    </Field>
  );
}
