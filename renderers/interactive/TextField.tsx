/**
 * The one frame of the text-like questions (text, number, date, phone, SSN, text area): the label
 * wired to the control, help and messages, a format hint, the character counter, and the control's shared
 * attributes (id and name from the key, the view's maximum length, `aria-required`,
 * `aria-describedby` for messages, help and counter, `aria-invalid`, the styled focus ring). Each
 * renderer draws only its control, with what differs (type, keyboard, parsing, mask).
 */
import type { ReactNode } from 'react';
import type { QuestionRendererProps } from '../registry';
import { Field, controlProps } from './Field';
import styles from './interactive.module.css';

/** The kinds drawn in this frame: the typed answers and the date (its answer is a date, not a length). */
export type TextFieldKind = 'text' | 'textarea' | 'number' | 'phone' | 'ssn' | 'date';

export interface ControlAttributes {
  readonly id: string;
  readonly name: string;
  readonly className: string | undefined;
  readonly maxLength: number | undefined;
  readonly 'aria-required': true | undefined;
  readonly 'aria-describedby': string | undefined;
  readonly 'aria-invalid': true | undefined;
  /** Leaving the control (the app may save, or show a format mistake now). */
  readonly onBlur: () => void;
}

interface TextFieldProps {
  readonly field: Pick<QuestionRendererProps<TextFieldKind>, 'view' | 'errors' | 'ids' | 'onBlur'>;
  /** The format the control expects (MM/DD/YYYY), shown above it and read with the field. */
  readonly hint?: string;
  /** The character counter's text, read with the field (not a live region: it would speak per key). */
  readonly counter?: string;
  /** The control's class, where it is not a one-line input. */
  readonly className?: string;
  /** Draws the control with the shared attributes. */
  readonly children: (control: ControlAttributes) => ReactNode;
}

export function TextField({ field, hint, counter, className, children }: TextFieldProps) {
  const { view, errors, ids } = field;
  const { question } = view;
  const hintId = hint === undefined ? undefined : `${ids.input}--hint`;
  const counterId = counter === undefined ? undefined : `${ids.input}--count`;
  return (
    <Field
      ids={ids}
      label={question.label}
      required={view.required}
      help={question.help}
      errors={errors}
    >
      {hintId ? (
        <p id={hintId} className={styles.help}>
          {hint}
        </p>
      ) : null}
      {children({
        id: ids.input,
        name: view.key,
        className: className ?? styles.input,
        maxLength: view.questionKind === 'date' ? undefined : view.maxLength,
        'aria-required': view.required || undefined,
        onBlur: field.onBlur,
        ...controlProps(ids, question.help, errors, hintId, counterId),
      })}
      {counterId ? (
        <p id={counterId} className={styles.counter}>
          {counter}
        </p>
      ) : null}
    </Field>
  );
}
