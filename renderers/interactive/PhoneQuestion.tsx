import type { QuestionRendererProps } from '../registry';
import { Field, controlProps } from './Field';
import styles from './interactive.module.css';
import { DigitMask } from './DigitMask';
import { textOf } from './values';

/** SPEC 5.7: digits are formatted as (XXX) XXX-XXXX, and stored so. */
export const PHONE_FORMAT = '(###) ###-####';

export function PhoneQuestion({
  view,
  value,
  onValueChange,
  errors,
  ids,
}: QuestionRendererProps<'phone'>) {
  const { question } = view;
  return (
    <Field
      ids={ids}
      label={question.label}
      required={view.required}
      help={question.help}
      errors={errors}
    >
      <DigitMask
        id={ids.input}
        name={view.key}
        className={styles.input}
        pattern={PHONE_FORMAT}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        text={textOf(value)}
        onText={onValueChange}
        aria-required={view.required || undefined}
        {...controlProps(ids, question.help, errors)}
      />
    </Field>
  );
}
