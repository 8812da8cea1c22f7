/**
 * The print renderer set (SPEC 2.9): every question as its label and its value in plain text, no
 * inputs, buttons, tab lists or navigation. Server-renderable: the staff view and the application
 * PDF draw the same components.
 */
import type { RendererSet } from '../registry';
import {
  PrintButtonTrigger,
  PrintCheckboxTrigger,
  PrintGroup,
  PrintParagraph,
  PrintRepeat,
  PrintSection,
  PrintTabs,
} from './containers';
import {
  PrintCheckbox,
  PrintDate,
  PrintFile,
  PrintLookup,
  PrintMonthYear,
  PrintNumber,
  PrintPhone,
  PrintRadio,
  PrintSelect,
  PrintSsn,
  PrintText,
  PrintTextarea,
} from './questions';

export const printRenderers: RendererSet = {
  text: PrintText,
  textarea: PrintTextarea,
  date: PrintDate,
  phone: PrintPhone,
  ssn: PrintSsn,
  number: PrintNumber,
  select: PrintSelect,
  radio: PrintRadio,
  checkbox: PrintCheckbox,
  monthYear: PrintMonthYear,
  lookup: PrintLookup,
  file: PrintFile,
  paragraph: PrintParagraph,
  section: PrintSection,
  group: PrintGroup,
  repeat: PrintRepeat,
  tabs: PrintTabs,
  buttonTrigger: PrintButtonTrigger,
  checkboxTrigger: PrintCheckboxTrigger,
};

export { PrintProvider, usePrintContext, type PrintContextValue } from './PrintContext';
export { PRINT_STYLESHEET, PRINT_CLASS, pageRules } from './stylesheet';
export * from './text';
// The answer readers every set shares, for integrators writing print-like output of their own.
export { choiceText, dateText, isChecked, monthYearText, textOf } from '../answers';
