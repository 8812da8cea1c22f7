import { textLength, truncateToLength } from '../../runtime';
import type { QuestionRendererProps } from '../registry';
import styles from './interactive.module.css';
import { TextField } from './TextField';
import { textOf } from '../answers';

/** SPEC 5.7: 6 rows by default (the character limit comes on the view). */
export const TEXTAREA_ROWS = 6;

/**
 * A text area with a character count. Characters are what the applicant sees (an emoji is one), as
 * the server counts them: the native `maxlength` counts code units, so the limit is kept here
 * instead, cutting a paste at the limit as it would.
 */
export function TextareaQuestion(props: QuestionRendererProps<'textarea'>) {
  const { view } = props;
  const text = textOf(props.value);
  const limit = view.maxLength;
  return (
    <TextField
      field={props}
      className={styles.textarea}
      counter={`Character count: ${textLength(text)} / ${limit}`}
    >
      {({ maxLength: _graphemes, ...control }) => (
        <textarea
          {...control}
          value={text}
          rows={view.question.rows ?? TEXTAREA_ROWS}
          onChange={(event) => props.onValueChange(truncateToLength(event.target.value, limit))}
          onBlur={props.onBlur}
        />
      )}
    </TextField>
  );
}
