/**
 * The definition format: an institution's application as plain, JSON-serializable data.
 *
 * Question kinds, containers and conditions are closed unions on `kind` (or on the shape of a
 * condition); every switch over them in the runtime is exhaustive.
 *
 * Keys inside a `repeat` are local: the runtime joins them with the slot's prefix
 * (`parent_` + `first_name`) or suffix (`name` + `_2`). Everywhere else keys are answer keys.
 */

// ---------------------------------------------------------------------------------------------
// Conditions (SPEC 3.8, 5.1)

/**
 * Every operator with what it compares against: nothing, one value, or a list. Keyed by operator,
 * so a new operator cannot be added without saying which target it takes.
 */
export const OPERATOR_TARGETS = {
  equals: 'single',
  notEquals: 'single',
  lt: 'single',
  lte: 'single',
  gt: 'single',
  gte: 'single',
  answered: 'none',
  notAnswered: 'none',
  in: 'list',
  notIn: 'list',
} as const satisfies Record<string, 'none' | 'single' | 'list'>;
export type Operator = keyof typeof OPERATOR_TARGETS;
export const OPERATORS = Object.keys(OPERATOR_TARGETS) as readonly Operator[];

export type Scalar = string | number | boolean | null;

/** One comparison: `{ valueKey, operator, target }`. `scope: 'slot'` reads the key of the current repeat slot. */
export interface Comparison {
  readonly valueKey: string;
  readonly operator: Operator;
  readonly target?: Scalar | readonly Scalar[];
  readonly scope?: 'slot';
}

/** A comparison, or a combination of conditions (cross-field rules stay data). */
export type Condition =
  | Comparison
  | { readonly all: readonly Condition[] }
  | { readonly any: readonly Condition[] }
  | { readonly not: Condition };

// ---------------------------------------------------------------------------------------------
// Options (SPEC 3.9)

export interface OptionEntry {
  readonly value: string;
  readonly label: string;
}

/** A generated list of years: from `start` (default the current year, or an offset from it), `length` entries. */
export interface YearsSpec {
  readonly start?: number | { readonly offset: number };
  readonly length: number;
  readonly direction: 'ascending' | 'descending';
}

/** A named list of the definition, an inline list, or generated years. */
export type OptionSource = string | readonly OptionEntry[] | { readonly years: YearsSpec };

// ---------------------------------------------------------------------------------------------
// Rules (SPEC 5.3 to 5.5)

/** A message, or one message per repeat slot (slot 1 first) where the wording differs per slot. */
export type Message = string | readonly string[];

/** A date relative to the current year: `yearOffset` years from now, at a fixed month and day. */
export interface RelativeDate {
  readonly yearOffset: number;
  readonly month: number;
  readonly day: number;
}

interface RuleBase {
  /** The rule applies only while this condition holds. */
  readonly when?: Condition;
}

export type Rule =
  | (RuleBase & { readonly kind: 'required'; readonly message?: Message })
  | (RuleBase & { readonly kind: 'mustBeTrue'; readonly message?: Message })
  | (RuleBase & {
      readonly kind: 'pattern';
      readonly pattern: string;
      readonly flags?: string;
      readonly message: Message;
    })
  | (RuleBase & { readonly kind: 'email'; readonly message: Message })
  | (RuleBase & { readonly kind: 'maxLength'; readonly max: number; readonly message?: Message })
  | (RuleBase & { readonly kind: 'minLength'; readonly min: number; readonly message: Message })
  | (RuleBase & {
      readonly kind: 'range';
      readonly min: number;
      readonly max: number;
      readonly step?: number;
      readonly message: Message;
    })
  | (RuleBase & { readonly kind: 'date'; readonly message: Message })
  | (RuleBase & {
      readonly kind: 'dateWindow';
      readonly min?: RelativeDate;
      readonly max?: RelativeDate;
      /** `{year}` is replaced by the bound's year. */
      readonly minMessage: Message;
      readonly maxMessage: Message;
    });

export type RuleKind = Rule['kind'];

// ---------------------------------------------------------------------------------------------
// Questions

/**
 * The browser's autofill hint of a question that asks for the applicant's own data (the HTML
 * `autocomplete` attribute: `given-name`, `section-mailing postal-code`, `mobile tel-national`;
 * WCAG 2.1 1.3.5). Checked against the HTML grammar when a definition loads (D198). Only on the
 * applicant's own data: a parent's or a school's fields carry none, so a browser does not offer the
 * applicant's own name or address there.
 */
export type AutoComplete = string;

interface QuestionBase {
  /** The answer key (local inside a repeat). */
  readonly key: string;
  readonly label: string;
  readonly help?: string;
  readonly rules?: readonly Rule[];
  /**
   * A sensitive answer (SSN, citizenship, conduct): before the applicant has an account it is kept
   * in memory only, never in web storage nor in the server's anonymous temporary answers
   * (SECURITY.md "Decisions already taken"; `sensitiveKeys`).
   */
  readonly sensitive?: true;
}

export interface TextQuestion extends QuestionBase {
  readonly kind: 'text';
  /** Default 45 (SPEC 5.7). */
  readonly maxLength?: number;
  readonly inputMode?: 'text' | 'email' | 'numeric' | 'decimal' | 'url';
  readonly autoComplete?: AutoComplete;
}

export interface TextareaQuestion extends QuestionBase {
  readonly kind: 'textarea';
  /** Default 1500 (SPEC 5.7). */
  readonly maxLength?: number;
  /** Default 6. */
  readonly rows?: number;
}

export interface DateQuestion extends QuestionBase {
  readonly kind: 'date';
  /** The browser's autofill hint, e.g. `bday` for a date of birth. */
  readonly autoComplete?: AutoComplete;
}

export interface PhoneQuestion extends QuestionBase {
  readonly kind: 'phone';
  /** E.g. `mobile tel-national` for the applicant's own cell phone; none (`off`) for anyone else's. */
  readonly autoComplete?: AutoComplete;
}

export interface SsnQuestion extends QuestionBase {
  readonly kind: 'ssn';
  /**
   * How the answer shows in copies of the application (the staff view and the applicant's PDF):
   * `lastFour` prints `***-**-6789`; `full` (the default) prints it as given.
   */
  readonly inCopies?: 'full' | 'lastFour';
}

export interface NumberQuestion extends QuestionBase {
  readonly kind: 'number';
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
}

/** A select shown only under a condition (SPEC 4.7). */
export type ConditionalSelect =
  | { readonly category: 'displayOnly'; readonly when: Condition }
  | {
      readonly category: 'displayAndOptions';
      /** The controlling answer; its value picks the option list. */
      readonly control: { readonly valueKey: string; readonly scope?: 'slot' };
      readonly optionsByValue: Readonly<Record<string, OptionSource>>;
    };

export interface SelectQuestion extends QuestionBase {
  readonly kind: 'select';
  /** E.g. `address-level1` for the applicant's state. */
  readonly autoComplete?: AutoComplete;
  readonly options: OptionSource;
  /** Store `<key>_desc` with the chosen label (default true). */
  readonly description?: boolean;
  readonly conditional?: ConditionalSelect;
}

export interface RadioQuestion extends QuestionBase {
  readonly kind: 'radio';
  readonly options: OptionSource;
  readonly description?: boolean;
  /** Radio-driven content: shown for the chosen value, cleared otherwise. */
  readonly content?: Readonly<Record<string, readonly Node[]>>;
}

export interface CheckboxQuestion extends QuestionBase {
  readonly kind: 'checkbox';
}

/** A month/year pair: `key` holds the month, `yearKey` the year; their errors are combined under `key`. */
export interface MonthYearQuestion extends QuestionBase {
  readonly kind: 'monthYear';
  readonly yearKey: string;
  readonly years: YearsSpec;
}

export type LookupCategory = 'hs_ceeb' | 'college_ceeb' | 'address';

/** Autocomplete (SPEC 3.7, 4.9): `key` holds the display label; a chosen entry fills `prefix` + each of `fills`. */
export interface LookupQuestion extends QuestionBase {
  readonly kind: 'lookup';
  readonly category: LookupCategory;
  readonly prefix: string;
  readonly fills: readonly string[];
  /** E.g. `address-line1` for the applicant's street address; `off` (the default) for a school. */
  readonly autoComplete?: AutoComplete;
}

/** A document upload: the answer is 'ANSWERED' once its conversion completed (SPEC 3.3). */
export interface FileQuestion extends QuestionBase {
  readonly kind: 'file';
}

export type Question =
  | TextQuestion
  | TextareaQuestion
  | DateQuestion
  | PhoneQuestion
  | SsnQuestion
  | NumberQuestion
  | SelectQuestion
  | RadioQuestion
  | CheckboxQuestion
  | MonthYearQuestion
  | LookupQuestion
  | FileQuestion;

export type QuestionKind = Question['kind'];

/** Keyed by kind, so a question kind missing here (or unknown to the union) does not compile. */
const QUESTION_KIND_RECORD = {
  text: true,
  textarea: true,
  date: true,
  phone: true,
  ssn: true,
  number: true,
  select: true,
  radio: true,
  checkbox: true,
  monthYear: true,
  lookup: true,
  file: true,
} as const satisfies Record<QuestionKind, true>;
export const QUESTION_KINDS = Object.keys(QUESTION_KIND_RECORD) as readonly QuestionKind[];

// ---------------------------------------------------------------------------------------------
// Content and containers

/** Static text. */
export interface Paragraph {
  readonly kind: 'paragraph';
  readonly id: string;
  readonly text: string;
}

/** Which keys a hiding container clears: every key inside it, or the listed ones. */
export type ClearList = 'all' | readonly string[];

export interface Section {
  readonly kind: 'section';
  readonly id: string;
  readonly title?: string;
  readonly description?: string;
  /** The section hides while this holds (SPEC 4.7). */
  readonly hideWhen?: Condition;
  /** Keys cleared while hidden; default 'all'. */
  readonly clears?: ClearList;
  readonly children: readonly Node[];
}

/** Repeated instances: fixed prefix slots (`parent_`, `parent_2_`) or add-another suffixes (`key`, `key_2`…). */
export type RepeatInstances =
  | { readonly kind: 'prefix'; readonly prefixes: readonly string[] }
  | { readonly kind: 'suffix'; readonly max: number };

export interface Repeat {
  readonly kind: 'repeat';
  readonly id: string;
  /** `{n}` is replaced by the instance number. */
  readonly title?: string;
  readonly instances: RepeatInstances;
  /** Reveal instances one at a time with an "Add Another" button (required for suffix instances). */
  readonly addAnother?: { readonly buttonId: string; readonly label: string };
  readonly children: readonly Node[];
}

export interface Tab {
  readonly name: string;
  readonly label: string;
  /** Keys cleared when this tab is left; default 'all'. */
  readonly clears?: ClearList;
  readonly children: readonly Node[];
}

export interface Tabs {
  readonly kind: 'tabs';
  readonly id: string;
  readonly label: string;
  readonly defaultTab: string;
  readonly tabs: readonly Tab[];
}

/** A button that reveals its content once clicked (content that holds answers is always shown). */
export interface ButtonTrigger {
  readonly kind: 'trigger';
  readonly mode: 'button';
  readonly id: string;
  readonly label: string;
  readonly after: readonly Node[];
}

/** A checkbox (a boolean answer under `key`) switching between `before` and `after` content. */
export interface CheckboxTrigger {
  readonly kind: 'trigger';
  readonly mode: 'checkbox';
  readonly id: string;
  readonly key: string;
  readonly label: string;
  readonly before: readonly Node[];
  readonly after: readonly Node[];
}

export type Trigger = ButtonTrigger | CheckboxTrigger;

/** Mutually exclusive groups: the first case whose condition holds shows and keeps its keys. */
export interface Exclusive {
  readonly kind: 'exclusive';
  readonly id: string;
  readonly cases: readonly { readonly when: Condition; readonly children: readonly Node[] }[];
}

export type Container = Section | Repeat | Tabs | Trigger | Exclusive;

export type Node = Question | Paragraph | Container;

// ---------------------------------------------------------------------------------------------
// The definition

export interface Page {
  readonly id: string;
  /** The route, for example `/about`. */
  readonly path: string;
  readonly title: string;
  readonly children: readonly Node[];
}

export interface Definition {
  readonly id: string;
  readonly title: string;
  readonly version: number;
  /** The route applicants land on (SPEC 2.1). */
  readonly defaultRoute: string;
  readonly optionLists: Readonly<Record<string, readonly OptionEntry[]>>;
  readonly pages: readonly Page[];
}
