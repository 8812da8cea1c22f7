import type { QuestionRendererProps } from '../registry';
import { choiceAnswers, chosenValue } from './choices';
import { Field, controlProps } from './Field';
import styles from './interactive.module.css';
import { Options } from './Options';

/** A native select; the choice stores its value and, under `_desc`, its label (SPEC 3.3). */
export function SelectQuestion({
  view,
  value,
  onAnswersChange,
  errors,
  ids,
}: QuestionRendererProps<'select'>) {
  const { question } = view;
  const { options } = view;
  return (
    <Field
      ids={ids}
      label={question.label}
      required={view.required}
      help={question.help}
      errors={errors}
    >
      <select
        id={ids.input}
        name={view.key}
        className={styles.select}
        autoComplete={question.autoComplete}
        value={chosenValue(options, value)}
        onChange={(event) => onAnswersChange(choiceAnswers(view, event.target.value))}
        aria-required={view.required || undefined}
        {...controlProps(ids, question.help, errors)}
      >
        <Options options={options} />
      </select>
    </Field>
  );
}
