import type { QuestionRendererProps } from '../registry';
import { cx } from './classNames';
import { Field, controlProps } from './Field';
import styles from './interactive.module.css';
import { textOf } from './values';

/**
 * A number typed as text (a `type="number"` input drops what it cannot parse and changes on wheel
 * scrolls). The range is checked by the runtime; the keyboard offers a decimal point when the
 * question's bounds or step are not whole numbers.
 */
export function NumberQuestion({
  view,
  value,
  onValueChange,
  errors,
  ids,
}: QuestionRendererProps<'number'>) {
  const { question } = view;
  const decimal = [question.min, question.max, question.step].some(
    (bound) => bound !== undefined && !Number.isInteger(bound),
  );
  return (
    <Field
      ids={ids}
      label={question.label}
      required={view.required}
      help={question.help}
      errors={errors}
    >
      <input
        id={ids.input}
        name={view.key}
        type="text"
        inputMode={decimal ? 'decimal' : 'numeric'}
        autoComplete="off"
        maxLength={view.maxLength ?? undefined}
        className={cx(styles.input, styles.short)}
        value={textOf(value)}
        onChange={(event) => onValueChange(event.target.value)}
        aria-required={view.required || undefined}
        {...controlProps(ids, question.help, errors)}
      />
    </Field>
  );
}
