import type { QuestionRendererProps } from '../registry';
import { cx } from './classNames';
import { DigitMask } from './DigitMask';
import styles from './interactive.module.css';
import { TextField } from './TextField';
import { dateAnswer, dateEntryDigits, dateText } from '../answers';

/** The date as the applicant types it: digits only, the slashes put in for them. */
export const DATE_FORMAT = '##/##/####';
/** The format hint shown above the field. */
export const DATE_HINT = 'MM/DD/YYYY';

/**
 * A date typed as MM/DD/YYYY in a text field (D121): the answer is ISO `YYYY-MM-DD` once the text is
 * a real date, and otherwise the text itself, which the question's `date` rule reports with its own
 * message (SPEC 5.3) and which is saved as '' (SPEC 5.7). Being an answer, what was typed is shown
 * again whenever the field is drawn again.
 */
export function DateQuestion(props: QuestionRendererProps<'date'>) {
  const { question } = props.view;
  return (
    <TextField field={props} hint={DATE_HINT} className={cx(styles.input, styles.short)}>
      {({ maxLength: _mask, ...control }) => (
        <DigitMask
          {...control}
          pattern={DATE_FORMAT}
          inputMode="numeric"
          autoComplete={question.autoComplete ?? 'off'}
          text={dateText(props.value)}
          readInsertion={dateEntryDigits}
          onText={(text) => props.onValueChange(dateAnswer(text))}
        />
      )}
    </TextField>
  );
}
