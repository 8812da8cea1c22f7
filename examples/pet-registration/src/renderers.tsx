/**
 * The app's own renderer set: plain HTML with its own class names, no library. The record is typed
 * by the package, so the compiler refuses a set that misses a question kind or a container.
 */
import { BLANK, optionLabel, type QuestionView } from '@admission-platform/form-runtime';
import type {
  AnswerValue,
  QuestionRendererProps,
  RendererSet,
} from '@admission-platform/form-renderers/registry';
import type { ReactNode } from 'react';

const textOf = (value: unknown): string =>
  typeof value === 'string' && value !== BLANK ? value : '';

function Field(props: QuestionRendererProps & { readonly children: ReactNode }) {
  const { view, errors, ids, children } = props;
  return (
    <div className="pet-field" data-key={view.key}>
      <label htmlFor={ids.input}>
        {view.question.label}
        {view.required ? ' *' : ''}
      </label>
      {children}
      {errors.map((message) => (
        <p key={message} id={ids.errors} className="pet-error" role="alert">
          {message}
        </p>
      ))}
    </div>
  );
}

/** Reads only what every question's view has, so it draws any kind. */
function TextInput(props: QuestionRendererProps) {
  const { view, value, onValueChange, onBlur, ids, errors } = props;
  return (
    <Field {...props}>
      <input
        id={ids.input}
        name={view.key}
        value={textOf(value)}
        aria-invalid={errors.length > 0 || undefined}
        onChange={(event) => onValueChange(event.target.value)}
        onBlur={onBlur}
      />
    </Field>
  );
}

/** A choice stores its code and, where the definition asks for it, its label under `<key>_desc`. */
function choose(view: QuestionView<'select' | 'radio'>, code: string): Record<string, AnswerValue> {
  const answers: Record<string, AnswerValue> = { [view.key]: code };
  if (view.descKey) answers[view.descKey] = optionLabel(view.options, code);
  return answers;
}

/** A select's and a radio's view carry the options on offer and the `_desc` key. */
function Choice(props: QuestionRendererProps<'select' | 'radio'>) {
  const { view, value, onAnswersChange, ids } = props;
  const options = view.options.filter((option) => option.value !== BLANK);
  return (
    <Field {...props}>
      <span id={ids.input} role="radiogroup">
        {options.map((option) => (
          <label key={option.value}>
            <input
              type="radio"
              name={view.key}
              value={option.value}
              checked={value === option.value}
              onChange={() => onAnswersChange(choose(view, option.value))}
            />
            {option.label}
          </label>
        ))}
      </span>
    </Field>
  );
}

function Checkbox(props: QuestionRendererProps<'checkbox'>) {
  const { view, value, onValueChange, ids } = props;
  return (
    <Field {...props}>
      <input
        id={ids.input}
        type="checkbox"
        name={view.key}
        checked={value === true}
        onChange={(event) => onValueChange(event.target.checked)}
      />
    </Field>
  );
}

export const petRenderers: RendererSet = {
  text: TextInput,
  textarea: TextInput,
  date: TextInput,
  phone: TextInput,
  ssn: TextInput,
  number: TextInput,
  lookup: TextInput,
  monthYear: TextInput,
  file: TextInput,
  select: Choice,
  radio: Choice,
  checkbox: Checkbox,
  paragraph: ({ view }) => <p>{view.text}</p>,
  section: ({ view, children }) => (
    <fieldset className="pet-section">
      {view.title ? <legend>{view.title}</legend> : null}
      {children}
    </fieldset>
  ),
  group: ({ children }) => <div>{children}</div>,
  repeat: ({ instances }) => (
    <div>
      {instances.map((instance) => (
        <div key={instance.number}>{instance.content}</div>
      ))}
    </div>
  ),
  tabs: ({ children }) => <div>{children}</div>,
  buttonTrigger: ({ view, children, onReveal }) =>
    view.revealed ? (
      <div>{children}</div>
    ) : (
      <button type="button" onClick={onReveal}>
        {view.label}
      </button>
    ),
  checkboxTrigger: ({ checkbox, children }) => (
    <div>
      {checkbox}
      {children}
    </div>
  ),
};
