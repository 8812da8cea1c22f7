import { PatternFormat } from 'react-number-format';
import type { QuestionRendererProps } from '../registry';
import { Field, controlProps } from './Field';
import styles from './interactive.module.css';
import { digitCount, digitsOf, formatDigits, textOf } from './values';

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
      <PatternFormat
        id={ids.input}
        name={view.key}
        className={styles.input}
        format={PHONE_FORMAT}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        valueIsNumericString
        value={digitsOf(textOf(value), digitCount(PHONE_FORMAT))}
        onValueChange={(values, source) => {
          if (source.source !== 'event') return;
          onValueChange(formatDigits(values.value, PHONE_FORMAT));
        }}
        aria-required={view.required || undefined}
        {...controlProps(ids, question.help, errors)}
      />
    </Field>
  );
}
