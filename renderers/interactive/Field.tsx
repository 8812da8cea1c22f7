/**
 * The frame of every question: a visible label (or a legend for groups of controls), optional help
 * text and the list of the question's messages, linked to the control by `aria-describedby`.
 */
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import type { QuestionRendererProps } from '../registry';
import { cx } from './classNames';
import { ErrorIcon } from './icons';
import styles from './interactive.module.css';

type Ids = QuestionRendererProps['ids'];

/** `aria-describedby` of a control: the messages first (they matter most), then help, then extras. */
export function describedBy(
  ids: Ids,
  help: string | undefined,
  errors: readonly string[],
  ...extra: readonly (string | undefined)[]
): string | undefined {
  const list = [errors.length > 0 ? ids.errors : undefined, help ? ids.help : undefined, ...extra];
  const present = list.filter((id): id is string => Boolean(id));
  return present.length > 0 ? present.join(' ') : undefined;
}

/** The accessibility attributes of the control that carries the question. */
export function controlProps(
  ids: Ids,
  help: string | undefined,
  errors: readonly string[],
  ...extra: readonly (string | undefined)[]
) {
  return {
    'aria-describedby': describedBy(ids, help, errors, ...extra),
    'aria-invalid': errors.length > 0 ? true : undefined,
  } as const;
}

export function ErrorList({ id, errors }: { id: string; errors: readonly string[] }) {
  if (errors.length === 0) return null;
  return (
    <ul id={id} className={styles.errors}>
      {errors.map((message, index) => (
        <li key={`${index}:${message}`} className={styles.error}>
          <ErrorIcon />
          <span>{message}</span>
        </li>
      ))}
    </ul>
  );
}

export function Help({ id, help }: { id: string; help: string | undefined }) {
  return help ? (
    <p id={id} className={styles.help}>
      {help}
    </p>
  ) : null;
}

interface FrameProps {
  readonly ids: Ids;
  readonly label: string;
  /** Shows the required marker (the control itself carries `aria-required`). */
  readonly required?: boolean;
  readonly help: string | undefined;
  readonly errors: readonly string[];
  readonly children: ReactNode;
}

/** A single control with `<label for>`. */
/** A visible asterisk; screen readers hear `aria-required` on the control instead. */
function RequiredMark({ required }: { required: boolean | undefined }) {
  return required ? (
    <span className={styles.required} aria-hidden="true">
      {' *'}
    </span>
  ) : null;
}

export function Field({ ids, label, required, help, errors, children }: FrameProps) {
  return (
    <div className={styles.field} data-state={errors.length > 0 ? 'invalid' : 'valid'}>
      <label htmlFor={ids.input} className={styles.label}>
        {label}
        <RequiredMark required={required} />
      </label>
      <Help id={ids.help} help={help} />
      <ErrorList id={ids.errors} errors={errors} />
      {children}
    </div>
  );
}

/** A group of controls (radio buttons, a month/year pair) named by its `<legend>`. */
export function FieldSet({
  ids,
  label,
  required,
  help,
  errors,
  children,
  className,
  ...rest
}: FrameProps & Omit<ComponentPropsWithoutRef<'fieldset'>, 'children'>) {
  return (
    <fieldset
      {...rest}
      className={cx(styles.field, styles.fieldset, className)}
      data-state={errors.length > 0 ? 'invalid' : 'valid'}
    >
      <legend className={cx(styles.label, styles.legend)}>
        {label}
        <RequiredMark required={required} />
      </legend>
      <Help id={ids.help} help={help} />
      <ErrorList id={ids.errors} errors={errors} />
      {children}
    </fieldset>
  );
}
