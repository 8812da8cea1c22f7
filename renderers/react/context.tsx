/**
 * The form context renderers find through `useFormContext()`; outside its provider the hook throws a
 * named error instead of failing somewhere deeper.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { RendererSet } from '../registry';
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
}

export interface FormContextValue {
  readonly renderers: RendererSet;
  readonly answers: AnswerSource;
  readonly errors: ErrorSource;
  readonly anonymous: boolean;
  readonly actions: FormActions;
  /** Document questions' upload state and actions (SPEC 4.4); absent where files are only shown. */
  readonly documents?: DocumentSource;
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
