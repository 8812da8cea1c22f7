export {
  FormProvider,
  useFormContext,
  MissingFormProviderError,
  type FormActions,
  type FormContextValue,
  type LookupSource,
  type LookupSuggestionData,
  type RepeatActions,
} from './context';
export { PageOutlet, fieldIds } from './outlet';
export { usePageView, viewSignature } from './pageView';
export {
  ErrorStore,
  NO_ERRORS,
  keepUnchanged,
  sameMessages,
  staticAnswers,
  staticErrors,
  useAnswer,
  useErrors,
  type AnswerSource,
  type ErrorSource,
} from './store';
export {
  NO_DOCUMENT,
  formatFileSize,
  useDocument,
  type DocumentPhase,
  type DocumentSource,
  type DocumentText,
  type DocumentState,
} from './documents';
