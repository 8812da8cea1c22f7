import { useState } from 'react';
import type { QuestionRendererProps } from '../registry';
import { cx } from './classNames';
import { Field, controlProps } from './Field';
import styles from './interactive.module.css';
import { DigitMask } from './DigitMask';
import { textOf } from './values';

/** SPEC 5.7 and 9: ###-##-####, digits only, at most 11 characters. */
export const SSN_FORMAT = '###-##-####';

/**
 * A Social Security number, masked until the applicant presses "Show". The toggle keeps one name
 * and reports its state with `aria-pressed` (a toggle whose name changes would say it twice).
 */
export function SsnQuestion({
  view,
  value,
  onValueChange,
  errors,
  ids,
}: QuestionRendererProps<'ssn'>) {
  const { question } = view;
  const [shown, setShown] = useState(false);
  return (
    <Field
      ids={ids}
      label={question.label}
      required={view.required}
      help={question.help}
      errors={errors}
    >
      <div className={styles.inputRow}>
        <DigitMask
          id={ids.input}
          name={view.key}
          className={styles.input}
          pattern={SSN_FORMAT}
          type={shown ? 'text' : 'password'}
          inputMode="numeric"
          autoComplete="off"
          data-state={shown ? 'shown' : 'masked'}
          text={textOf(value)}
          onText={onValueChange}
          aria-required={view.required || undefined}
          {...controlProps(ids, question.help, errors)}
        />
        <button
          type="button"
          className={cx(styles.button, styles.secondary)}
          aria-label={`Show ${question.label}`}
          aria-pressed={shown}
          aria-controls={ids.input}
          data-state={shown ? 'on' : 'off'}
          onClick={() => setShown((current) => !current)}
        >
          Show
        </button>
      </div>
    </Field>
  );
}
