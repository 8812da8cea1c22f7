/**
 * Print question renderers (SPEC 2.9): the label and the answer as plain text, no inputs. Each
 * renders with `react-dom/server` (no browser APIs, no effects).
 */
import { choiceText, dateText, monthYearText, textOf } from '../answers';
import type { QuestionRendererProps } from '../registry';
import { usePrintContext } from './PrintContext';
import { PRINT_CLASS as c } from './stylesheet';
import { checkboxMark, documentAttachedText, lookupText, notAnsweredText } from './text';

/**
 * One question: its label, then its value, as text. An optional question left empty is left out; a
 * required one left empty (a copy printed before submit) says so, so staff see what is missing (D161).
 */
export function PrintField({
  view,
  label,
  children: text,
  className = c.field,
  valueClassName = c.value,
}: {
  view: { readonly key: string; readonly required: boolean };
  label: string;
  children: string;
  className?: string;
  valueClassName?: string;
}) {
  if (text === '' && !view.required) return null;
  return (
    <div className={className} data-key={view.key}>
      <span className={c.label}>{label}</span>{' '}
      <span className={valueClassName}>{text === '' ? notAnsweredText : text}</span>
    </div>
  );
}

function TextLike({ view, value }: QuestionRendererProps) {
  return (
    <PrintField view={view} label={view.question.label}>
      {textOf(value)}
    </PrintField>
  );
}

export const PrintText = TextLike;
/** A date as the applicant entered it, MM/DD/YYYY (the answer is ISO). */
export function PrintDate({ view, value }: QuestionRendererProps<'date'>) {
  return (
    <PrintField view={view} label={view.question.label}>
      {dateText(value)}
    </PrintField>
  );
}
export const PrintPhone = TextLike;
export const PrintSsn = TextLike;
export const PrintNumber = TextLike;

/** A text area keeps its line breaks. */
export function PrintTextarea({ view, value }: QuestionRendererProps<'textarea'>) {
  return (
    <PrintField
      view={view}
      label={view.question.label}
      className={`${c.field} ${c.long}`}
      valueClassName={`${c.value} ${c.prewrap}`}
    >
      {textOf(value)}
    </PrintField>
  );
}

/**
 * Select and radio: the `_desc` label instead of the code. A radio whose answer reveals more (an
 * explanation) stays on the page of what follows it (D197).
 */
function Choice({ view, value, answerOf }: QuestionRendererProps<'select' | 'radio'>) {
  const description = view.descKey ? answerOf(view.descKey) : undefined;
  const explained = view.questionKind === 'radio' && view.content.length > 0;
  return (
    <PrintField
      view={view}
      label={view.question.label}
      className={explained ? `${c.field} ${c.explained}` : c.field}
    >
      {choiceText(value, description, view.options)}
    </PrintField>
  );
}
export const PrintSelect = Choice;
export const PrintRadio = Choice;

/** SPEC 2.9: [X] or [ ] before the label. */
export function PrintCheckbox({ view, value }: QuestionRendererProps<'checkbox'>) {
  return (
    <div className={`${c.field} ${c.checkbox}`} data-key={view.key}>
      <span className={c.value}>{checkboxMark(value)}</span>{' '}
      <span className={c.label}>{view.question.label}</span>
    </div>
  );
}

export function PrintMonthYear({ view, value, answerOf }: QuestionRendererProps<'monthYear'>) {
  const year = answerOf(view.yearKey);
  return (
    <PrintField view={view} label={view.question.label}>
      {monthYearText(value, year, view.monthOptions)}
    </PrintField>
  );
}

/** A school shows "<school name> (Ceeb: <code>)"; an address lookup its label. */
export function PrintLookup({ view, value, answerOf }: QuestionRendererProps<'lookup'>) {
  const ceebKey = view.fillKeys.find((key) => key.endsWith('ceeb'));
  return (
    <PrintField view={view} label={view.question.label}>
      {lookupText(view.question.category, value, ceebKey ? answerOf(ceebKey) : undefined)}
    </PrintField>
  );
}

/** SPEC 2.9: 'Document attached for "<question label>"' when a document exists (D80). */
export function PrintFile({ view }: QuestionRendererProps<'file'>) {
  const { documents } = usePrintContext();
  return (
    <PrintField view={view} label={view.question.label}>
      {documents.has(view.key) ? documentAttachedText(view.question.label) : ''}
    </PrintField>
  );
}
