/**
 * A lookup question (SPEC 4.9): an autocomplete combobox (downshift), loaded on demand so it stays
 * out of the first page's JavaScript. Until it has loaded, and where the app gives no lookup source,
 * the applicant types the display label into a plain text input.
 */
import type { QuestionRendererProps } from '../registry';
import { useFormContext } from '../react';
import { Field, controlProps } from './Field';
import styles from './interactive.module.css';
import { onDemand } from './onDemand';
import { textOf } from '../answers';

/**
 * The key whose plain input has focus while the combobox loads: the combobox takes over focus, the
 * caret and the typed text when it replaces the input (typing is not interrupted).
 */
export const focusHandoff = { key: null as string | null };

/**
 * The plain input works while the combobox is on its way; the combobox loads when the page is
 * idle, or as soon as the applicant focuses the field (D198).
 */
const LookupCombobox = onDemand(
  () => import('./LookupCombobox').then((module) => module.LookupCombobox),
  (props: QuestionRendererProps<'lookup'>) => (
    <PlainLookup {...props} onIntent={() => void LookupCombobox.preload().catch(() => undefined)} />
  ),
  { loads: 'preloaded' },
);

function LookupRenderer(props: QuestionRendererProps<'lookup'>) {
  const { lookup } = useFormContext();
  if (!lookup) return <PlainLookup {...props} />;
  return <LookupCombobox {...props} source={lookup} />;
}

export const LookupQuestion = Object.assign(LookupRenderer, { preload: LookupCombobox.preload });

/** The display label as plain text. */
export function PlainLookup({
  view,
  value,
  onValueChange,
  onBlur,
  errors,
  ids,
  onIntent,
}: QuestionRendererProps<'lookup'> & {
  /** The applicant reached for the field: the combobox that replaces this input should load. */
  readonly onIntent?: () => void;
}) {
  const { question } = view;
  return (
    <Field
      ids={ids}
      label={question.label}
      required={view.required}
      help={question.help}
      errors={errors}
    >
      <input
        id={ids.input}
        name={view.key}
        type="text"
        className={styles.input}
        value={textOf(value)}
        maxLength={view.maxLength}
        autoComplete={question.autoComplete ?? 'off'}
        data-category={question.category}
        onChange={(event) => onValueChange(event.target.value)}
        onFocus={() => {
          focusHandoff.key = view.key;
          onIntent?.();
        }}
        onBlur={() => {
          if (focusHandoff.key === view.key) focusHandoff.key = null;
          onBlur();
        }}
        aria-required={view.required || undefined}
        {...controlProps(ids, question.help, errors)}
      />
    </Field>
  );
}
