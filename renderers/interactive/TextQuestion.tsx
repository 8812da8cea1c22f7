import type { QuestionRendererProps } from '../registry';
import { Field, controlProps } from './Field';
import styles from './interactive.module.css';
import { textOf } from './values';

export function TextQuestion({
  view,
  value,
  onValueChange,
  errors,
  ids,
}: QuestionRendererProps<'text'>) {
  const { question } = view;
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
        className={styles.input}
        value={textOf(value)}
        maxLength={view.maxLength ?? undefined}
        inputMode={question.inputMode}
        autoComplete={question.autoComplete}
        onChange={(event) => onValueChange(event.target.value)}
        aria-required={view.required || undefined}
        {...controlProps(ids, question.help, errors)}
      />
    </Field>
  );
}
