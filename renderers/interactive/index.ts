/**
 * The interactive renderer set: the applicant's inputs, drawn with native controls and Radix Tabs,
 * styled with the theme's custom properties.
 */
import type { RendererSet } from '../registry';
import { ButtonTrigger } from './ButtonTrigger';
import { CheckboxQuestion } from './CheckboxQuestion';
import { CheckboxTrigger } from './CheckboxTrigger';
import { DateQuestion } from './DateQuestion';
import { FileQuestion } from './LazyFileQuestion';
import { Group } from './Group';
import { LookupQuestion } from './LookupQuestion';
import { MonthYearQuestion } from './MonthYearQuestion';
import { NumberQuestion } from './NumberQuestion';
import { Paragraph } from './Paragraph';
import { PhoneQuestion } from './PhoneQuestion';
import { RadioQuestion } from './RadioQuestion';
import { Repeat } from './Repeat';
import { Section } from './Section';
import { SelectQuestion } from './SelectQuestion';
import { SsnQuestion } from './SsnQuestion';
import { TabsContainer } from './TabsContainer';
import { TextareaQuestion } from './TextareaQuestion';
import { TextQuestion } from './TextQuestion';

export const interactiveRenderers: RendererSet = {
  text: TextQuestion,
  textarea: TextareaQuestion,
  date: DateQuestion,
  phone: PhoneQuestion,
  ssn: SsnQuestion,
  number: NumberQuestion,
  select: SelectQuestion,
  radio: RadioQuestion,
  checkbox: CheckboxQuestion,
  monthYear: MonthYearQuestion,
  lookup: LookupQuestion,
  file: FileQuestion,
  paragraph: Paragraph,
  section: Section,
  group: Group,
  repeat: Repeat,
  tabs: TabsContainer,
  buttonTrigger: ButtonTrigger,
  checkboxTrigger: CheckboxTrigger,
};
