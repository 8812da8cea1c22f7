import { isIsoDate } from '../../runtime';
import type { QuestionRendererProps } from '../registry';
import { Field, controlProps } from './Field';
import styles from './interactive.module.css';
import { textOf } from './values';

/**
 * A native date input. The answer is ISO `YYYY-MM-DD`; an entry that is not a real date (the input
 * then reports '') clears the answer (SPEC 5.7).
 */
export function DateQuestion({
  view,
  value,
  onValueChange,
  errors,
  ids,
}: QuestionRendererProps<'date'>) {
  const { question } = view;
  const text = textOf(value);
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
        type="date"
        className={styles.input}
        value={isIsoDate(text) ? text : ''}
        max="9999-12-31"
        onChange={(event) => {
          const next = event.target.value;
          onValueChange(isIsoDate(next) ? next : '');
        }}
        aria-required={view.required || undefined}
        {...controlProps(ids, question.help, errors)}
      />
    </Field>
  );
}
