import { isIsoDate, UNPARSABLE_DATE } from '../../runtime';
import type { QuestionRendererProps } from '../registry';
import { Field, controlProps } from './Field';
import styles from './interactive.module.css';
import { textOf } from './values';

/**
 * A native date input. The answer is ISO `YYYY-MM-DD`. An entry that is not a real date (02/30/2008,
 * or half typed: the input then reports '' and `badInput`) becomes UNPARSABLE_DATE, which the `date`
 * rule reports with the question's own message and which is saved as '' (SPEC 5.3, 5.7). What was
 * typed stays in the input: its value is '' already, so React leaves the text alone.
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
          if (isIsoDate(next)) onValueChange(next);
          else onValueChange(event.target.validity.badInput ? UNPARSABLE_DATE : '');
        }}
        aria-required={view.required || undefined}
        {...controlProps(ids, question.help, errors)}
      />
    </Field>
  );
}
