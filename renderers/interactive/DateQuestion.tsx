import { isIsoDate, UNPARSABLE_DATE } from '../../runtime';
import type { QuestionRendererProps } from '../registry';
import { TextField } from './TextField';
import { textOf } from '../answers';

/**
 * A native date input. The answer is ISO `YYYY-MM-DD`. An entry that is not a real date (02/30/2008,
 * or half typed: the input then reports '' and `badInput`) becomes UNPARSABLE_DATE, which the `date`
 * rule reports with the question's own message and which is saved as '' (SPEC 5.3, 5.7). What was
 * typed stays in the input: its value is '' already, so React leaves the text alone.
 */
export function DateQuestion(props: QuestionRendererProps<'date'>) {
  const text = textOf(props.value);
  const entered = (input: HTMLInputElement) => {
    if (isIsoDate(input.value)) props.onValueChange(input.value);
    else props.onValueChange(input.validity.badInput ? UNPARSABLE_DATE : '');
  };
  return (
    <TextField field={props}>
      {({ maxLength: _native, ...control }) => (
        <input
          {...control}
          type="date"
          value={isIsoDate(text) ? text : ''}
          max="9999-12-31"
          onChange={(event) => entered(event.currentTarget)}
          // A date typed from empty that is not one keeps the value '': Chrome sends no input or
          // change event, so each key released and leaving the field read what it now holds.
          onInput={(event) => entered(event.currentTarget)}
          onKeyUp={(event) => entered(event.currentTarget)}
          onBlur={(event) => entered(event.currentTarget)}
        />
      )}
    </TextField>
  );
}
