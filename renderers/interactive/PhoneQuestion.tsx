import type { QuestionRendererProps } from '../registry';
import { DigitMask } from './DigitMask';
import { TextField } from './TextField';
import { textOf } from '../answers';

/** SPEC 5.7: digits are formatted as (XXX) XXX-XXXX, and stored so. */
export const PHONE_FORMAT = '(###) ###-####';

export function PhoneQuestion(props: QuestionRendererProps<'phone'>) {
  const { question } = props.view;
  return (
    <TextField field={props}>
      {({ maxLength: _mask, ...control }) => (
        <DigitMask
          {...control}
          pattern={PHONE_FORMAT}
          type="tel"
          inputMode="tel"
          // The applicant's own numbers only (the definition's hint); a parent's is not theirs.
          autoComplete={question.autoComplete ?? 'off'}
          text={textOf(props.value)}
          onText={props.onValueChange}
        />
      )}
    </TextField>
  );
}
