import { useState } from 'react';
import type { QuestionRendererProps } from '../registry';
import { DigitMask } from './DigitMask';
import styles from './interactive.module.css';
import { TextField } from './TextField';
import { textOf } from '../answers';

/** SPEC 5.7 and 9: ###-##-####, digits only, at most 11 characters. */
export const SSN_FORMAT = '###-##-####';

/**
 * A Social Security number, masked until the applicant presses "Show". The toggle keeps one name
 * and reports its state with `aria-pressed` (a toggle whose name changes would say it twice).
 */
export function SsnQuestion(props: QuestionRendererProps<'ssn'>) {
  const { view, ids } = props;
  const [shown, setShown] = useState(false);
  return (
    <TextField field={props}>
      {({ maxLength: _mask, ...control }) => (
        <div className={styles.inputRow}>
          <DigitMask
            {...control}
            pattern={SSN_FORMAT}
            type={shown ? 'text' : 'password'}
            inputMode="numeric"
            autoComplete="off"
            data-state={shown ? 'shown' : 'masked'}
            text={textOf(props.value)}
            onText={props.onValueChange}
          />
          <button
            type="button"
            className={styles.button}
            aria-label={`Show ${view.question.label}`}
            aria-pressed={shown}
            aria-controls={ids.input}
            data-state={shown ? 'on' : 'off'}
            onClick={() => setShown((current) => !current)}
          >
            Show
          </button>
        </div>
      )}
    </TextField>
  );
}
