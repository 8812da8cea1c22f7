import type { QuestionRendererProps } from '../registry';
import { ErrorList, Help, controlProps } from './Field';
import styles from './interactive.module.css';
import { isChecked } from '../answers';

/** A single check box, its label beside it; the answer is `true` or `false`. */
export function CheckboxQuestion({
  view,
  value,
  onValueChange,
  errors,
  ids,
}: QuestionRendererProps<'checkbox'>) {
  const { question } = view;
  const checked = isChecked(value);
  return (
    <div className={styles.field} data-state={errors.length > 0 ? 'invalid' : 'valid'}>
      <ErrorList id={ids.errors} errors={errors} />
      <div className={styles.choice}>
        <input
          id={ids.input}
          name={view.key}
          type="checkbox"
          className={styles.check}
          checked={checked}
          data-state={checked ? 'checked' : 'unchecked'}
          onChange={(event) => onValueChange(event.target.checked)}
          aria-required={view.required || undefined}
          {...controlProps(ids, question.help, errors)}
        />
        <label htmlFor={ids.input} className={styles.choiceLabel}>
          {question.label}
        </label>
      </div>
      <Help id={ids.help} help={question.help} />
    </div>
  );
}
