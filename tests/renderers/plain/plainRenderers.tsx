/**
 * A third renderer set, as an integrator would write it: plain HTML inputs, no styling, no library.
 * It passes the same conformance suite as the interactive and print sets
 * (tests/renderers/conformance.test.tsx), and docs/embedding.md quotes it region by region
 * (tests/renderers/embedding.test.ts checks that the quotes match this file).
 */
import type { ReactNode } from 'react';
import { BLANK, optionLabel, type OptionEntry, type QuestionView } from '#runtime';
import type { AnswerValue, QuestionRendererProps, RendererSet } from '#renderers/registry.ts';

const textOf = (value: unknown): string =>
  typeof value === 'string' && value !== BLANK ? value : '';

// #region docs:frame
/** Label, control, then the question's messages (linked by aria-describedby). */
interface FrameProps {
  readonly view: QuestionView;
  readonly errors: readonly string[];
  readonly ids: { readonly input: string; readonly errors: string };
}

function Frame(props: FrameProps & { children: ReactNode }) {
  const { view, errors, ids, children } = props;
  return (
    <div data-key={view.key}>
      <label htmlFor={ids.input}>{view.question.label}</label>
      {children}
      {errors.length > 0 ? (
        <ul id={ids.errors}>
          {errors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function described(props: Omit<FrameProps, 'view'>) {
  return props.errors.length > 0
    ? { 'aria-describedby': props.ids.errors, 'aria-invalid': true }
    : {};
}
// #endregion

// #region docs:text
/** Reads only what every question's view has, so it draws any kind. */
function TextInput(props: QuestionRendererProps) {
  const { view, value, onValueChange, onBlur, ids } = props;
  return (
    <Frame {...props}>
      <input
        id={ids.input}
        name={view.key}
        value={textOf(value)}
        onChange={(event) => onValueChange(event.target.value)}
        onBlur={onBlur}
        {...described(props)}
      />
    </Frame>
  );
}
// #endregion

function TextArea(props: QuestionRendererProps<'textarea'>) {
  const { view, value, onValueChange, onBlur, ids } = props;
  return (
    <Frame {...props}>
      <textarea
        id={ids.input}
        name={view.key}
        value={textOf(value)}
        onChange={(event) => onValueChange(event.target.value)}
        onBlur={onBlur}
        {...described(props)}
      />
    </Frame>
  );
}

// #region docs:select
/** A choice stores its code and, where the definition asks for it, the label under `<key>_desc`. */
function choose(view: QuestionView<'select' | 'radio'>, code: string): Record<string, AnswerValue> {
  const stored = code === BLANK ? '' : code;
  const answers: Record<string, AnswerValue> = { [view.key]: stored };
  if (view.descKey) answers[view.descKey] = optionLabel(view.options, stored);
  return answers;
}

/** A select's view carries its options and `descKey` (and no other kind's fields). */
function Select(props: QuestionRendererProps<'select'>) {
  const { view, value, onAnswersChange, ids } = props;
  return (
    <Frame {...props}>
      <select
        id={ids.input}
        name={view.key}
        value={textOf(value) || BLANK}
        onChange={(event) => onAnswersChange(choose(view, event.target.value))}
        {...described(props)}
      >
        {view.options.map((option: OptionEntry) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}
// #endregion

function Radio(props: QuestionRendererProps<'radio'>) {
  const { view, value, onAnswersChange, ids } = props;
  return (
    <fieldset data-key={view.key} {...described(props)}>
      <legend>{view.question.label}</legend>
      {view.options
        .filter((option) => option.value !== BLANK)
        .map((option) => (
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
      {props.errors.length > 0 ? <p id={ids.errors}>{props.errors.join(' ')}</p> : null}
    </fieldset>
  );
}

function Checkbox(props: QuestionRendererProps<'checkbox'>) {
  const { view, value, onValueChange, ids } = props;
  return (
    <div data-key={view.key}>
      <input
        type="checkbox"
        id={ids.input}
        name={view.key}
        checked={value === true || value === 'true'}
        onChange={(event) => onValueChange(event.target.checked)}
        {...described(props)}
      />
      <label htmlFor={ids.input}>{view.question.label}</label>
      {props.errors.length > 0 ? <p id={ids.errors}>{props.errors.join(' ')}</p> : null}
    </div>
  );
}

function MonthYear(props: QuestionRendererProps<'monthYear'>) {
  const { view, value, answerOf, onAnswersChange, ids } = props;
  const { yearKey } = view;
  return (
    <fieldset data-key={view.key} {...described(props)}>
      <legend>{view.question.label}</legend>
      <label>
        Month
        <select
          id={ids.input}
          value={textOf(value) || BLANK}
          onChange={(event) => onAnswersChange({ [view.key]: event.target.value })}
        >
          {view.monthOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Year
        <select
          value={textOf(answerOf(yearKey)) || BLANK}
          onChange={(event) => onAnswersChange({ [yearKey]: event.target.value })}
        >
          {view.yearOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      {props.errors.length > 0 ? <p id={ids.errors}>{props.errors.join(' ')}</p> : null}
    </fieldset>
  );
}

/** Uploads need the platform's document calls; this minimal set only names the question. */
function File(props: QuestionRendererProps<'file'>) {
  return (
    <div data-key={props.view.key}>
      <p>{props.view.question.label}</p>
    </div>
  );
}

// #region docs:set
export const plainRenderers: RendererSet = {
  text: TextInput,
  textarea: TextArea,
  date: TextInput,
  phone: TextInput,
  ssn: TextInput,
  number: TextInput,
  lookup: TextInput,
  select: Select,
  radio: Radio,
  checkbox: Checkbox,
  monthYear: MonthYear,
  file: File,
  paragraph: ({ view }) => <p>{view.text}</p>,
  section: ({ view, children }) => (
    <section>
      {view.title ? <h2>{view.title}</h2> : null}
      {children}
    </section>
  ),
  group: ({ children }) => <div>{children}</div>,
  repeat: ({ view, instances, onAddAnother }) => (
    <div>
      {instances.map((instance) => (
        <fieldset key={instance.number}>
          {instance.title ? <legend>{instance.title}</legend> : null}
          {instance.content}
        </fieldset>
      ))}
      {onAddAnother && view.addAnother ? (
        <button type="button" onClick={onAddAnother}>
          {view.addAnother.label}
        </button>
      ) : null}
    </div>
  ),
  tabs: ({ view, children, onTabChange }) => (
    <fieldset>
      <legend>{view.label}</legend>
      {view.tabs.map((tab) => (
        <button
          key={tab.name}
          type="button"
          aria-pressed={tab.name === view.chosen}
          disabled={!onTabChange}
          onClick={() => onTabChange?.(tab.name)}
        >
          {tab.label}
        </button>
      ))}
      {children}
    </fieldset>
  ),
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
// #endregion
