/**
 * The renderer contract: a renderer set is a typed record keyed by question kind, plus the content
 * and containers of the view model. Adding a question kind does not compile until every set handles
 * it. Renderers only draw what the runtime resolved; they decide no visibility and hold no messages.
 * A renderer whose code loads on demand carries `preload` (Preloadable); the page outlet calls it
 * when the browser is idle, so the pages after the first draw without waiting.
 */
import type { ReactNode } from 'react';
import type {
  AnswerValue,
  ButtonTriggerView,
  CheckboxTriggerView,
  GroupView,
  ParagraphView,
  QuestionKind,
  QuestionView,
  RepeatView,
  SectionView,
  TabsView,
} from '../runtime';

/** The runtime's answer type, re-exported so a renderer set needs this module only. */
export type { AnswerValue };

export interface QuestionRendererProps<K extends QuestionKind = QuestionKind> {
  /** The view of a `K` question: its kind's fields only (a select's view has no `yearKey`). */
  readonly view: QuestionView<K>;
  /** The answer under `view.key`. */
  readonly value: unknown;
  /** Reads another answer (the year of a month/year pair, a lookup's filled fields). */
  readonly answerOf: (key: string) => unknown;
  /** Sets the answer under `view.key` (and its `_desc` for choices, where the renderer passes it). */
  readonly onValueChange: (value: AnswerValue) => void;
  /** Sets several answers at once (a month/year pair, a lookup's fields, a choice and its `_desc`). */
  readonly onAnswersChange: (answers: Readonly<Record<string, AnswerValue>>) => void;
  /** The field lost focus (text areas save then, SPEC 5.7). */
  readonly onBlur: () => void;
  /** This question's messages (SPEC 2.3); empty when valid. */
  readonly errors: readonly string[];
  /** Ids for labelling and `aria-describedby`. */
  readonly ids: { readonly input: string; readonly errors: string; readonly help: string };
  /** True when the applicant is not logged in (file questions explain why they wait). */
  readonly anonymous: boolean;
}

export type QuestionRenderer<K extends QuestionKind> = (
  props: QuestionRendererProps<K>,
) => ReactNode;

export interface ContainerProps<V> {
  readonly view: V;
  /** The rendered children (the outlet renders them with the same set). */
  readonly children: ReactNode;
}

export interface RepeatRendererProps extends ContainerProps<RepeatView> {
  /** Rendered instances, in order, with their titles. */
  readonly instances: readonly {
    readonly number: number;
    readonly title: string | null;
    readonly content: ReactNode;
  }[];
  /** Shows the next instance (SPEC 4.8); undefined where adding is not offered (logged out, print). */
  readonly onAddAnother: (() => void) | undefined;
  /** Removing added instances (D148); undefined where it is not offered (logged out, print). */
  readonly removal?: RepeatRemoval | undefined;
}

/** The words of removing a repeat's instance; `name` is the instance's title ("Parent or Legal Guardian 2"). */
export interface RepeatText {
  readonly remove: string;
  /** The button's accessible name. */
  readonly removeLabel: (name: string) => string;
  readonly confirmTitle: (name: string) => string;
  readonly confirmText: string;
  readonly cancel: string;
  readonly confirm: string;
  /** Announced once it is gone. */
  readonly removed: (name: string) => string;
  /** Shown in place of the add button once the maximum is on screen. */
  readonly atMaximum: (max: number) => string;
  /** The name of an instance whose repeat has no title. */
  readonly untitled: (number: number) => string;
}

/** Removing instance `number` (1-based) of one repeat (D148). */
export interface RepeatRemoval {
  readonly canRemove: (number: number) => boolean;
  /** True when the instance holds answers: removing it then asks first. */
  readonly answered: (number: number) => boolean;
  readonly remove: (number: number) => void;
  readonly text: RepeatText;
}

export interface TabsRendererProps extends ContainerProps<TabsView> {
  readonly onTabChange: ((tab: string) => void) | undefined;
}

export interface ButtonTriggerRendererProps extends ContainerProps<ButtonTriggerView> {
  readonly onReveal: () => void;
}

export interface CheckboxTriggerRendererProps extends ContainerProps<CheckboxTriggerView> {
  /** The trigger's own check box, drawn by the set's checkbox renderer. */
  readonly checkbox: ReactNode;
}

export type RendererSet = {
  readonly [K in QuestionKind]: QuestionRenderer<K>;
} & {
  readonly paragraph: (props: { readonly view: ParagraphView }) => ReactNode;
  readonly section: (props: ContainerProps<SectionView>) => ReactNode;
  readonly group: (props: ContainerProps<GroupView>) => ReactNode;
  readonly repeat: (props: RepeatRendererProps) => ReactNode;
  readonly tabs: (props: TabsRendererProps) => ReactNode;
  readonly buttonTrigger: (props: ButtonTriggerRendererProps) => ReactNode;
  readonly checkboxTrigger: (props: CheckboxTriggerRendererProps) => ReactNode;
};

/** A renderer whose code loads on demand. */
export interface Preloadable {
  /** Starts loading the renderer's code; calling it again returns the same promise. */
  readonly preload: () => Promise<unknown>;
}

/** Starts loading the code of every renderer of a set that loads on demand. */
export function preloadRenderers(set: RendererSet): void {
  for (const renderer of Object.values(set) as unknown[]) {
    const preload = (renderer as Partial<Preloadable>).preload;
    // A failed download is tried again when a page draws the renderer.
    if (typeof preload === 'function') preload().catch(() => undefined);
  }
}
