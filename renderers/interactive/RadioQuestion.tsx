import type { QuestionRendererProps } from '../registry';
import { choiceAnswers, chosenValue, realOptions } from './choices';
import { FieldSet, describedBy } from './Field';
import styles from './interactive.module.css';

/**
 * Native radio buttons in a fieldset named by its legend. The group carries the state and the
 * description; the first radio carries the question's id, so `#key` anchors can focus it.
 */
export function RadioQuestion({
  view,
  value,
  onAnswersChange,
  errors,
  ids,
}: QuestionRendererProps<'radio'>) {
  const { question } = view;
  const { options } = view;
  const chosen = chosenValue(options, value);
  return (
    <FieldSet
      ids={ids}
      label={question.label}
      required={view.required}
      help={question.help}
      errors={errors}
      role="radiogroup"
      aria-required={view.required || undefined}
      aria-describedby={describedBy(ids, question.help, errors)}
      aria-invalid={errors.length > 0 ? true : undefined}
    >
      <div className={styles.choices}>
        {realOptions(options).map((option, index) => {
          const id = index === 0 ? ids.input : `${ids.input}--${index}`;
          return (
            <div key={`${index}:${option.value}`} className={styles.choice}>
              <input
                id={id}
                type="radio"
                name={view.key}
                className={styles.check}
                value={option.value}
                checked={chosen === option.value}
                onChange={() => onAnswersChange(choiceAnswers(view, option.value))}
              />
              <label htmlFor={id} className={styles.choiceLabel}>
                {option.label}
              </label>
            </div>
          );
        })}
      </div>
    </FieldSet>
  );
}
