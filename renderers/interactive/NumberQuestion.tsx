import type { QuestionRendererProps } from '../registry';
import { cx } from './classNames';
import styles from './interactive.module.css';
import { TextField } from './TextField';
import { textOf } from '../answers';

/**
 * A number typed as text (a `type="number"` input drops what it cannot parse and changes on wheel
 * scrolls). The range is checked by the runtime; the keyboard offers a decimal point when the
 * question's bounds or step are not whole numbers.
 */
export function NumberQuestion(props: QuestionRendererProps<'number'>) {
  const { question } = props.view;
  const decimal = [question.min, question.max, question.step].some(
    (bound) => bound !== undefined && !Number.isInteger(bound),
  );
  return (
    <TextField field={props} className={cx(styles.input, styles.short)}>
      {(control) => (
        <input
          {...control}
          type="text"
          inputMode={decimal ? 'decimal' : 'numeric'}
          autoComplete="off"
          value={textOf(props.value)}
          onChange={(event) => props.onValueChange(event.target.value)}
        />
      )}
    </TextField>
  );
}
