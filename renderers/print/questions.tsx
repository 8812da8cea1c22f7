/**
 * Print question renderers (SPEC 2.9): the label and the answer as plain text, no inputs. Each
 * renders with `react-dom/server` (no browser APIs, no effects).
 */
import type { ReactNode } from 'react';
import { choiceText, dateText, monthYearText, textOf } from '../answers';
import type { QuestionRendererProps } from '../registry';
import { usePrintContext } from './PrintContext';
import { PRINT_CLASS as c } from './stylesheet';
import { checkboxMark, documentAttachedText, lookupText } from './text';

/** One question: its label, then its value, as text. */
export function PrintField({
  questionKey,
  label,
  children,
}: {
  questionKey: string;
  label: string;
  children: ReactNode;
}) {
  return (
    <div className={c.field} data-key={questionKey}>
      <span className={c.label}>{label}</span> <span className={c.value}>{children}</span>
    </div>
  );
}

function TextLike({ view, value }: QuestionRendererProps) {
  return (
    <PrintField questionKey={view.key} label={view.question.label}>
      {textOf(value)}
    </PrintField>
  );
}

export const PrintText = TextLike as (props: QuestionRendererProps<'text'>) => ReactNode;
/** A date as the applicant entered it, MM/DD/YYYY (the answer is ISO). */
export function PrintDate({ view, value }: QuestionRendererProps<'date'>) {
  return (
    <PrintField questionKey={view.key} label={view.question.label}>
      {dateText(value)}
    </PrintField>
  );
}
export const PrintPhone = TextLike as (props: QuestionRendererProps<'phone'>) => ReactNode;
export const PrintSsn = TextLike as (props: QuestionRendererProps<'ssn'>) => ReactNode;
export const PrintNumber = TextLike as (props: QuestionRendererProps<'number'>) => ReactNode;

/** A text area keeps its line breaks. */
export function PrintTextarea({ view, value }: QuestionRendererProps<'textarea'>) {
  return (
    <div className={`${c.field} ${c.long}`} data-key={view.key}>
      <span className={c.label}>{view.question.label}</span>{' '}
      <span className={`${c.value} ${c.prewrap}`}>{textOf(value)}</span>
    </div>
  );
}

/** Select and radio: the `_desc` label instead of the code. */
function Choice({ view, value, answerOf }: QuestionRendererProps<'select' | 'radio'>) {
  const description = view.descKey ? answerOf(view.descKey) : undefined;
  return (
    <PrintField questionKey={view.key} label={view.question.label}>
      {choiceText(value, description, view.options)}
    </PrintField>
  );
}
export const PrintSelect = Choice as (props: QuestionRendererProps<'select'>) => ReactNode;
export const PrintRadio = Choice as (props: QuestionRendererProps<'radio'>) => ReactNode;

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
  const year = answerOf(view.yearKey ?? view.question.yearKey);
  return (
    <PrintField questionKey={view.key} label={view.question.label}>
      {monthYearText(value, year, view.monthOptions)}
    </PrintField>
  );
}

/** A school shows "<school name> (Ceeb: <code>)"; an address lookup its label. */
export function PrintLookup({ view, value, answerOf }: QuestionRendererProps<'lookup'>) {
  const ceebKey = view.fillKeys.find((key) => key.endsWith('ceeb'));
  return (
    <PrintField questionKey={view.key} label={view.question.label}>
      {lookupText(view.question.category, value, ceebKey ? answerOf(ceebKey) : undefined)}
    </PrintField>
  );
}

/** SPEC 2.9: 'Document attached for "<question label>"' when a document exists (D80). */
export function PrintFile({ view }: QuestionRendererProps<'file'>) {
  const { documents } = usePrintContext();
  return (
    <PrintField questionKey={view.key} label={view.question.label}>
      {documents.has(view.key) ? documentAttachedText(view.question.label) : ''}
    </PrintField>
  );
}
