import type { QuestionRendererProps } from '../registry';
import { Field, controlProps } from './Field';
import styles from './interactive.module.css';
import { textOf } from './values';

/** The longest display label the data model keeps for a lookup answer. */
export const LOOKUP_MAX_LENGTH = 150;

/**
 * A lookup (schools, addresses) as plain text for now: the applicant types the display label, kept
 * under the question's key. The autocomplete combobox of SPEC 4.9 replaces this component whole.
 */
export function LookupQuestion({
  view,
  value,
  onValueChange,
  errors,
  ids,
}: QuestionRendererProps<'lookup'>) {
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
        maxLength={LOOKUP_MAX_LENGTH}
        autoComplete="off"
        data-category={question.category}
        onChange={(event) => onValueChange(event.target.value)}
        aria-required={view.required || undefined}
        {...controlProps(ids, question.help, errors)}
      />
    </Field>
  );
}
