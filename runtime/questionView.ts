/**
 * A question's resolved view (SPEC 4.7): a union discriminated by `questionKind`, each kind's view
 * carrying only what its renderer draws with, so a select renderer that reads `yearKey` does not
 * compile (D178).
 */
import type { OptionEntry, Question, QuestionKind } from './format';
import type { FieldInstance } from './model';
import type { Answers } from './values';
import type { ViewNode } from './visibility';

interface QuestionViewBase<K extends QuestionKind> {
  readonly kind: 'question';
  /** `question.kind`, on the view itself: checking it narrows the view (the question alone would not). */
  readonly questionKind: K;
  readonly key: string;
  readonly question: Extract<Question, { readonly kind: K }>;
  /** The repeat instance this question belongs to (1-based `number`), or null. */
  readonly instance: { readonly repeatId: string; readonly number: number } | null;
  /** True while an answer is required (for `aria-required` and a marker). */
  readonly required: boolean;
}

/** A typed answer. */
interface TypedFields {
  /** The most characters the answer may hold (SPEC 5.7; the server's limit). */
  readonly maxLength: number;
}

/** A choice among options. */
interface ChoiceFields {
  /** The options on offer now. */
  readonly options: readonly OptionEntry[];
  /** Where the chosen label is stored (`<key>_desc`, SPEC 3.3); null where the definition turns it off. */
  readonly descKey: string | null;
}

type NoFields = Readonly<Record<never, never>>;

/**
 * What each kind's view carries besides the common fields. Keyed by kind: a new kind does not
 * compile until it has an entry here and a case in `questionView`.
 */
interface QuestionViewFields {
  readonly text: TypedFields;
  readonly textarea: TypedFields;
  readonly phone: TypedFields;
  readonly ssn: TypedFields;
  readonly number: TypedFields;
  readonly date: NoFields;
  readonly checkbox: NoFields;
  readonly file: NoFields;
  readonly select: ChoiceFields;
  readonly radio: ChoiceFields & {
    /** Radio-driven content for the chosen value. */
    readonly content: readonly ViewNode[];
  };
  readonly monthYear: {
    /** Where the year is stored; the month is under `key`. */
    readonly yearKey: string;
    /** The definition's `months` list, else January to December. */
    readonly monthOptions: readonly OptionEntry[];
    /** The years on offer now. */
    readonly yearOptions: readonly OptionEntry[];
  };
  readonly lookup: TypedFields & {
    /** The keys a chosen entry fills (`prefix` + each of `fills`, in that order). */
    readonly fillKeys: readonly string[];
  };
}

/**
 * Indexed by `K` rather than mapped over it: `QuestionView<'select' | 'radio'>` is the union of the
 * two, a generic `QuestionView<K>` is a `QuestionView`, and a renderer of any kind fits every slot.
 */
type QuestionViews = {
  readonly [K in QuestionKind]: QuestionViewBase<K> & QuestionViewFields[K];
};

/** The view of a question of kind `K` (of any kind by default: check `questionKind` to narrow it). */
export type QuestionView<K extends QuestionKind = QuestionKind> = QuestionViews[K];

/**
 * The answer keys a question writes besides its own: the year of a month/year pair, the fields a
 * lookup fills. A choice's `_desc` is not among them: it changes only with the choice.
 */
export function relatedKeys(view: QuestionView): readonly string[] {
  switch (view.questionKind) {
    case 'monthYear':
      return [view.yearKey];
    case 'lookup':
      return view.fillKeys.filter((key) => key !== view.key);
    default:
      return [];
  }
}

/** A compiled question's view for these answers; `content` is the radio's chosen content. */
export function questionView(
  instance: FieldInstance,
  content: readonly ViewNode[],
  answers: Answers,
  now: Date,
): QuestionView {
  // One object literal per kind, the common fields written out: spreading a shared object into each
  // made building a page's view about ten times slower (the runtime bench's view of About You).
  const kind = 'question';
  const key = instance.key;
  const inRepeat = instance.slot
    ? { repeatId: instance.slot.repeatId, number: instance.slot.index + 1 }
    : null;
  const required = instance.isRequired(answers);
  const question = instance.question;
  // The compiler fills the kind's fields of the instance (questionCompiler.ts); `compiled` names a miss.
  switch (question.kind) {
    case 'text':
      return {
        kind,
        key,
        instance: inRepeat,
        required,
        questionKind: 'text',
        question,
        maxLength: limit(instance),
      };
    case 'textarea':
      return {
        kind,
        key,
        instance: inRepeat,
        required,
        questionKind: 'textarea',
        question,
        maxLength: limit(instance),
      };
    case 'phone':
      return {
        kind,
        key,
        instance: inRepeat,
        required,
        questionKind: 'phone',
        question,
        maxLength: limit(instance),
      };
    case 'ssn':
      return {
        kind,
        key,
        instance: inRepeat,
        required,
        questionKind: 'ssn',
        question,
        maxLength: limit(instance),
      };
    case 'number':
      return {
        kind,
        key,
        instance: inRepeat,
        required,
        questionKind: 'number',
        question,
        maxLength: limit(instance),
      };
    case 'date':
      return { kind, key, instance: inRepeat, required, questionKind: 'date', question };
    case 'checkbox':
      return { kind, key, instance: inRepeat, required, questionKind: 'checkbox', question };
    case 'file':
      return { kind, key, instance: inRepeat, required, questionKind: 'file', question };
    case 'select':
      return {
        kind,
        key,
        instance: inRepeat,
        required,
        questionKind: 'select',
        question,
        options: offered(instance, answers, now),
        descKey: instance.descKey,
      };
    case 'radio':
      return {
        kind,
        key,
        instance: inRepeat,
        required,
        questionKind: 'radio',
        question,
        options: offered(instance, answers, now),
        descKey: instance.descKey,
        content,
      };
    case 'monthYear':
      return {
        kind,
        key,
        instance: inRepeat,
        required,
        questionKind: 'monthYear',
        question,
        yearKey: compiled(instance.yearKey, instance),
        monthOptions: compiled(instance.monthOptions, instance),
        yearOptions: offered(instance, answers, now),
      };
    case 'lookup':
      return {
        kind,
        key,
        instance: inRepeat,
        required,
        questionKind: 'lookup',
        question,
        maxLength: limit(instance),
        fillKeys: instance.fillKeys,
      };
    default:
      throw new Error(`Unhandled question kind ${JSON.stringify(question satisfies never)}`);
  }
}

function offered(instance: FieldInstance, answers: Answers, now: Date): readonly OptionEntry[] {
  return compiled(instance.options, instance)(answers, now);
}

function limit(instance: FieldInstance): number {
  return compiled(instance.maxLength, instance);
}

function compiled<T>(value: T | null, instance: FieldInstance): T {
  if (value === null) throw new Error(`Question "${instance.key}" was compiled without its view`);
  return value;
}
