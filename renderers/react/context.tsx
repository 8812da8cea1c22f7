/**
 * The form context renderers find through `useFormContext()`; outside its provider the hook throws a
 * named error instead of failing somewhere deeper.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { LookupCategory } from '../../runtime';
import type { RendererSet, RepeatText } from '../registry';
import type { DocumentSource } from './documents';
import type { AnswerSource, ErrorSource } from './store';

export interface FormActions {
  /** SPEC 4.8: show one more instance of an add-another group (undefined: not offered). */
  readonly onAddAnother?: (buttonId: string) => void;
  /** SPEC 4.6: switch a tab group (undefined: tabs are fixed, as for service users). */
  readonly onTabChange?: (tabId: string, tab: string) => void;
  /** A button trigger was clicked. */
  readonly onReveal?: (triggerId: string) => void;
  /** A field lost focus. */
  readonly onBlur?: (key: string) => void;
  /** D148: removing added instances of repeats (undefined: not offered). */
  readonly repeats?: RepeatActions;
}

/** D148: the app's side of removing a repeat's instance (`number` is 1-based). */
export interface RepeatActions {
  readonly canRemove: (repeatId: string, number: number) => boolean;
  readonly answered: (repeatId: string, number: number) => boolean;
  readonly remove: (repeatId: string, number: number) => void;
  readonly text: RepeatText;
}

/** A lookup suggestion (SPEC 3.7): label, value and sub-text as the server answers them. */
export interface LookupSuggestionData {
  readonly text: string;
  readonly id: string;
  readonly sub_text: string;
}

/**
 * How lookup questions reach their lists (SPEC 4.9, 7.2): the app passes its API calls, the debounce
 * of SPEC 9 and the texts of its definition. Without one, a lookup is a plain text input.
 */
export interface LookupSource {
  /** Suggestions for typed text, best first; a rejection shows no suggestions. */
  readonly suggestions: (
    category: LookupCategory,
    text: string,
  ) => Promise<readonly LookupSuggestionData[]>;
  /** The detail record of a chosen suggestion: unprefixed fields, with `_desc` labels. */
  readonly detail: (
    category: LookupCategory,
    id: string,
  ) => Promise<Readonly<Record<string, string>>>;
  readonly debounce: { readonly wait: number; readonly maxWait: number };
  readonly text: {
    /** The entry that keeps typed text as a new value. */
    readonly use: (content: string) => string;
    /** Shown after a new value, except for addresses. */
    readonly newEntryNote: string;
    /** The accessible name of the button that clears the choice. */
    readonly clear: string;
  };
}

export interface FormContextValue {
  readonly renderers: RendererSet;
  readonly answers: AnswerSource;
  readonly errors: ErrorSource;
  readonly anonymous: boolean;
  readonly actions: FormActions;
  /** Lookup questions' data (SPEC 4.9); absent: lookups are plain text inputs. */
  readonly lookup?: LookupSource;
  /** Document questions' upload state and actions (SPEC 4.4); absent where files are only shown. */
  readonly documents?: DocumentSource;
  /**
   * When the renderers a page does not draw may start loading (`task`; returns its cancel): the app
   * waits until its first page is usable and idle. Absent: at the browser's next idle moment.
   */
  readonly whenIdle?: (task: () => void) => () => void;
}

const FormContext = createContext<FormContextValue | null>(null);

export class MissingFormProviderError extends Error {
  override readonly name = 'MissingFormProviderError';
  constructor() {
    super(
      'useFormContext() was called outside <FormProvider>: wrap the page in <FormProvider value={...}>.',
    );
  }
}

export function FormProvider({
  value,
  children,
}: {
  value: FormContextValue;
  children: ReactNode;
}) {
  return <FormContext.Provider value={value}>{children}</FormContext.Provider>;
}

export function useFormContext(): FormContextValue {
  const value = useContext(FormContext);
  if (!value) throw new MissingFormProviderError();
  return value;
}
