import { fieldIds, useAnswer, useFormContext } from '../react';
import type { QuestionRendererProps } from '../registry';
import { chosenValue, storedChoice } from './choices';
import { FieldSet, controlProps } from './Field';
import styles from './interactive.module.css';
import { Options } from './Options';

/**
 * A month and a year in one fieldset: the month under the question's key, the year under its year
 * key. Their messages are combined under the month key, so both selects point at them.
 *
 * The year is read through the form context: `answerOf` reads once and does not subscribe, so a
 * changed year would not re-render this question.
 */
export function MonthYearQuestion({
  view,
  value,
  onAnswersChange,
  errors,
  ids,
}: QuestionRendererProps<'monthYear'>) {
  const { question } = view;
  const { answers } = useFormContext();
  const { yearKey, monthOptions: months, yearOptions: years } = view;
  const year = useAnswer(answers, yearKey);
  const yearId = fieldIds(yearKey).input;
  const described = {
    ...controlProps(ids, question.help, errors),
    'aria-required': view.required || undefined,
  };
  return (
    <FieldSet
      ids={ids}
      label={question.label}
      required={view.required}
      help={question.help}
      errors={errors}
    >
      <div className={styles.pair}>
        <div className={styles.pairItem}>
          <label htmlFor={ids.input} className={styles.subLabel}>
            Month
          </label>
          <select
            id={ids.input}
            name={view.key}
            className={styles.select}
            value={chosenValue(months, value)}
            onChange={(event) => onAnswersChange({ [view.key]: storedChoice(event.target.value) })}
            {...described}
          >
            <Options options={months} />
          </select>
        </div>
        <div className={styles.pairItem}>
          <label htmlFor={yearId} className={styles.subLabel}>
            Year
          </label>
          <select
            id={yearId}
            name={yearKey}
            className={styles.select}
            value={chosenValue(years, year)}
            onChange={(event) => onAnswersChange({ [yearKey]: storedChoice(event.target.value) })}
            {...described}
          >
            <Options options={years} />
          </select>
        </div>
      </div>
    </FieldSet>
  );
}
