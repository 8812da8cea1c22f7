/**
 * The headless form runtime: pure TypeScript, no React, no DOM, no server. Integrators load a
 * definition, compute the view, validate and clear hidden keys, then draw with their own UI.
 */
export * from './format';
export { definitionSchema } from './schema';
export { parseDefinitionFormat } from './parseFormat';
export { ConfigurationError, MAX_ADD_ANOTHER, MAX_COMPONENTS_MESSAGE } from './errors';
export { BLANK, isEmpty, readAnswer, type Answers, type AnswerValue } from './values';
export { evaluateCondition, conditionKeys } from './conditions';
export { BLANK_OPTION, yearOptions, resolveOptions, optionLabel, hasChoices } from './options';
export { MAX_UNITS_PER_CHARACTER, textLength, truncateToLength, withinLength } from './textLength';
export { isIsoDate, isoFromUsDate, storedAnswer, usDate } from './dates';
export { slotKey, descKey, addAnotherKey, type Slot } from './keys';
export { EMAIL_PATTERN, defaultRequiredMessage } from './rules';
export { loadDefinition, prepareDefinition } from './load';
export {
  chosenTab,
  shownInstances,
  addAnotherGroups,
  tabGroups,
  type ViewState,
  type KeySpec,
} from './model';
export {
  questionOf,
  labelOf,
  savesOnBlur,
  keysOfKind,
  shownKeysOfKind,
  dataModelEntries,
  type DataModelKey,
} from './queries';
export {
  dataModelKeys,
  keySpec,
  answerProblems,
  emptyValueFor,
  type AnswerProblem,
} from './dataModel';
export { codedAnswers, touchesCodedAnswers, type CodedAnswers } from './choices';
export {
  validateAnswers,
  validateField,
  canSubmit,
  type ValidateOptions,
  type ValidationResult,
} from './validate';
export {
  visibleView,
  visiblePage,
  questionsOf,
  isVisible,
  type ViewNode,
  type PageView,
  type SectionView,
  type RepeatView,
  type TabsView,
  type ButtonTriggerView,
  type CheckboxTriggerView,
  type GroupView,
  type ParagraphView,
  type ViewOptions,
} from './visibility';
export { relatedKeys, type QuestionView } from './questionView';
export { keysToClear, applyClearing } from './clearing';
export { evaluate, type Evaluation, type EvaluateOptions } from './evaluate';
export {
  checkDefinition,
  keyPaths,
  pageOfKey,
  duplicateKeysMessage,
  extraKeysMessage,
  type DefinitionProblem,
  type CheckOptions,
} from './checks';
export {
  answersStandardSchema,
  formLevelValidator,
  type AnswersStandardSchema,
} from './standardSchema';
export { assertMaxComponents, canAddAnother } from './addAnother';
export {
  canRemoveInstance,
  instanceAnswered,
  removeInstance,
  type Removal,
} from './removeInstance';
export { maskLastFour, keysMaskedInCopies, answersForCopy } from './copies';
export { sensitiveKeys, withoutSensitive } from './sensitive';
