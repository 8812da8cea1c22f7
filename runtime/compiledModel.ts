/**
 * The types of a compiled definition: guards, question instances, compiled nodes and the model.
 *
 * Every piece of conditional content becomes a *guard*: a predicate on the answers and the UI state
 * (add-another counts, chosen tabs, clicked triggers) with a parent guard. A question is visible when
 * its innermost guard and all its parents hold. Validation, the view model and clearing all read the
 * same guards, so visibility is decided in one place.
 */
import { type KeyResolver } from './conditions';
import {
  type ButtonTrigger,
  type CheckboxTrigger,
  type Definition,
  type Exclusive,
  type OptionEntry,
  type Page,
  type Paragraph,
  type Question,
  type Repeat,
  type Section,
  type Tab,
  type Tabs,
} from './format';
import { type Slot } from './keys';
import { type Check } from './rules';
import { type Answers } from './values';

/** UI state that decides visibility besides the answers (SPEC 3.5). */
export interface ViewState {
  /** Shown instances per add-another button id (default 1). */
  readonly addAnother?: Readonly<Record<string, number>>;
  /** Chosen tab per tab group id (default: the group's default tab). */
  readonly tabs?: Readonly<Record<string, string>>;
  /** Button triggers that were clicked. */
  readonly triggers?: Readonly<Record<string, boolean>>;
}

export interface Guard {
  readonly id: number;
  readonly parent: Guard | null;
  /** This guard alone (parents not included). */
  readonly holds: (answers: Answers, state: ViewState) => boolean;
  /** Which keys this guard clears while it hides its content; null: it never clears. */
  readonly clears: ((key: string) => boolean) | null;
}

/** What an answer key may hold: the server's whitelist and type check. */
export type KeySpec =
  | {
      readonly type: 'text';
      readonly maxLength: number;
      /** Copies of the application (staff view, PDF) show only the last four digits. */
      readonly lastFourInCopies?: true;
    }
  /** A date question's answer: a real calendar date written `YYYY-MM-DD` (`isIsoDate`), nothing else. */
  | { readonly type: 'date' }
  | { readonly type: 'boolean' }
  | { readonly type: 'document' };

export interface FieldInstance {
  /** Position in `CompiledModel.instances`. */
  readonly index: number;
  /** Every answer key this question's checks read (its own keys and its rules' conditions). */
  readonly checkReads: readonly string[];
  /** The answer key (slot prefix or suffix applied). */
  readonly key: string;
  readonly question: Question;
  readonly page: Page;
  readonly slot: Slot | null;
  /** The innermost guard; null when the question is always visible. */
  readonly guard: Guard | null;
  readonly descKey: string | null;
  readonly yearKey: string | null;
  /** The most characters the answer under `key` may hold (its key spec), null for non-text answers. */
  readonly maxLength: number | null;
  /** Lookup questions: the keys a chosen entry fills. */
  readonly fillKeys: readonly string[];
  /** Every key this question owns (cleared together). */
  readonly ownedKeys: readonly string[];
  readonly checks: readonly Check[];
  /** The options offered for the current answers (select and radio; the years of a month/year), else null. */
  readonly options: ((answers: Answers, now: Date) => readonly OptionEntry[]) | null;
  /** Month/year questions: the months (the definition's `months` list, else January to December). */
  readonly monthOptions: readonly OptionEntry[] | null;
  /** displayAndOptions: the controlling key whose change clears this answer. */
  readonly controlKey: string | null;
  /** True while a `required` (or `mustBeTrue`) rule of the question applies to these answers. */
  readonly isRequired: (answers: Answers) => boolean;
  readonly resolve: KeyResolver;
}

export type CompiledNode =
  | {
      readonly type: 'question';
      readonly instance: FieldInstance;
      readonly content: readonly Branch[];
    }
  | { readonly type: 'paragraph'; readonly node: Paragraph }
  | {
      readonly type: 'section';
      readonly node: Section;
      readonly guard: Guard | null;
      readonly children: readonly CompiledNode[];
    }
  | {
      readonly type: 'repeat';
      readonly node: Repeat;
      readonly max: number;
      readonly instances: readonly SlotBranch[];
    }
  | { readonly type: 'tabs'; readonly node: Tabs; readonly tabs: readonly TabBranch[] }
  | {
      readonly type: 'buttonTrigger';
      readonly node: ButtonTrigger;
      readonly guard: Guard;
      readonly children: readonly CompiledNode[];
    }
  | {
      readonly type: 'checkboxTrigger';
      readonly node: CheckboxTrigger;
      readonly instance: FieldInstance;
      readonly before: Branch;
      readonly after: Branch;
    }
  | { readonly type: 'exclusive'; readonly node: Exclusive; readonly cases: readonly Branch[] };

export interface Branch {
  readonly value: string;
  readonly guard: Guard;
  readonly children: readonly CompiledNode[];
}
export interface SlotBranch {
  readonly slot: Slot;
  readonly guard: Guard | null;
  readonly children: readonly CompiledNode[];
}
export interface TabBranch {
  readonly tab: Tab;
  readonly guard: Guard;
  readonly children: readonly CompiledNode[];
}

export interface CompiledPage {
  readonly page: Page;
  readonly children: readonly CompiledNode[];
}

export interface CompiledModel {
  readonly definition: Definition;
  readonly pages: readonly CompiledPage[];
  readonly guardCount: number;
  /** Every question instance in definition order. */
  readonly instances: readonly FieldInstance[];
  /** Instances that carry checks (what full validation walks). */
  readonly checked: readonly FieldInstance[];
  /** The checked instances grouped per answer key, keys in definition order (what validation walks). */
  readonly checkedByKey: readonly {
    readonly key: string;
    /** The key is a name objects inherit (`constructor`): its answer is read as an own property only. */
    readonly inherited: boolean;
    readonly pageId: string;
    readonly instances: readonly FieldInstance[];
  }[];
  /** Instances by answer key, including the year key of month/year questions. */
  readonly byKey: ReadonlyMap<string, readonly FieldInstance[]>;
  /** The tenant data model: every key the definition can produce, with its type. */
  readonly keySpecs: ReadonlyMap<string, KeySpec>;
  /** The page of each key (the first page it appears on). */
  readonly keyPage: ReadonlyMap<string, Page>;
  /** Keys that appear on more than one page (a developer-time problem). */
  readonly keysOnSeveralPages: ReadonlyMap<string, readonly string[]>;
  /** Keys referenced by conditions and clear lists, with where they are referenced. */
  readonly references: readonly { readonly key: string; readonly path: string }[];
  /** Lookup questions whose prefix is not part of their key. */
  readonly prefixProblems: readonly {
    readonly prefix: string;
    readonly key: string;
    readonly path: string;
  }[];
  /** Add-another groups: button id → maximum instances. */
  readonly addAnotherGroups: ReadonlyMap<string, number>;
  /** Tab groups by id. */
  readonly tabGroups: ReadonlyMap<string, Tabs>;
  /** Keys whose value the view reads (conditions, radio content, check boxes, controls, required-when). */
  readonly viewKeys: ReadonlySet<string>;
  /** Keys whose emptiness alone the view reads (add-another slots and button triggers with answers). */
  readonly presenceKeys: ReadonlySet<string>;
  /** The question instances owning each answer key (its own, `_desc`, year and lookup fill keys). */
  readonly owners: ReadonlyMap<string, readonly FieldInstance[]>;
  /** For each answer key, the answer keys whose checks read it (their errors may change with it). */
  readonly dependants: ReadonlyMap<string, readonly string[]>;
}

/** Counts what the runtime does, for tests that bound the work per change (unset: no cost). */
export const instrumentation: {
  /** A visibility walk starts: the guards of a definition are evaluated afresh. */
  onWalk?: () => void;
  /** The checks of one answer key run. */
  onValidateKey?: (key: string) => void;
} = {};
