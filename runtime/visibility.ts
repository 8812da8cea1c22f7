/**
 * Visibility (SPEC 4.7, 4.8): the resolved view renderers draw. Clearing is in clearing.ts.
 */
import type { Definition, Page } from './format';
import {
  chosenTab,
  compile,
  guardOpen,
  newMemo,
  shownInstances,
  type CompiledNode,
  type GuardMemo,
  type ViewState,
} from './model';
import { questionView, type QuestionView } from './questionView';
import type { Answers } from './values';
import { asAnswers } from './validate';

export interface ParagraphView {
  readonly kind: 'paragraph';
  readonly id: string;
  readonly text: string;
}

export interface SectionView {
  readonly kind: 'section';
  readonly id: string;
  readonly title: string | null;
  readonly description: string | null;
  readonly children: readonly ViewNode[];
}

export interface RepeatView {
  readonly kind: 'repeat';
  readonly id: string;
  readonly instances: readonly {
    readonly number: number;
    readonly title: string | null;
    readonly children: readonly ViewNode[];
  }[];
  /** The add-another button: `canAdd` while fewer instances are shown than the maximum (SPEC 4.8). */
  readonly addAnother: {
    readonly buttonId: string;
    readonly label: string;
    readonly shown: number;
    readonly max: number;
    readonly canAdd: boolean;
  } | null;
}

export interface TabsView {
  readonly kind: 'tabs';
  readonly id: string;
  readonly label: string;
  readonly defaultTab: string;
  readonly chosen: string;
  readonly tabs: readonly { readonly name: string; readonly label: string }[];
  /** The chosen tab's content only. */
  readonly children: readonly ViewNode[];
}

export interface ButtonTriggerView {
  readonly kind: 'buttonTrigger';
  readonly id: string;
  readonly label: string;
  readonly revealed: boolean;
  readonly children: readonly ViewNode[];
}

export interface CheckboxTriggerView {
  readonly kind: 'checkboxTrigger';
  readonly id: string;
  readonly checkbox: QuestionView<'checkbox'>;
  readonly checked: boolean;
  /** The `before` content while unchecked, the `after` content while checked. */
  readonly children: readonly ViewNode[];
}

/** The content of the winning case of a mutually exclusive group. */
export interface GroupView {
  readonly kind: 'group';
  readonly id: string;
  readonly children: readonly ViewNode[];
}

export type ViewNode =
  | QuestionView
  | ParagraphView
  | SectionView
  | RepeatView
  | TabsView
  | ButtonTriggerView
  | CheckboxTriggerView
  | GroupView;

export interface PageView {
  readonly id: string;
  readonly path: string;
  readonly title: string;
  readonly children: readonly ViewNode[];
}

export interface ViewOptions extends ViewState {
  readonly now?: Date;
}

interface Walk {
  readonly answers: Answers;
  readonly state: ViewState;
  readonly memo: GuardMemo;
  readonly now: Date;
}

function viewNodes(nodes: readonly CompiledNode[], walk: Walk): ViewNode[] {
  const out: ViewNode[] = [];
  for (const node of nodes) {
    const view = viewNode(node, walk);
    if (view) out.push(view);
  }
  return out;
}

function viewNode(node: CompiledNode, walk: Walk): ViewNode | null {
  const { answers, state, memo } = walk;
  const open = (guard: Parameters<typeof guardOpen>[0]) => guardOpen(guard, answers, state, memo);
  const type = node.type;
  switch (type) {
    case 'question': {
      if (!open(node.instance.guard)) return null;
      const branch = node.content.find((b) => open(b.guard));
      const content = branch ? viewNodes(branch.children, walk) : [];
      return questionView(node.instance, content, answers, walk.now);
    }
    case 'paragraph':
      return { kind: 'paragraph', id: node.node.id, text: node.node.text };
    case 'section':
      if (!open(node.guard)) return null;
      return {
        kind: 'section',
        id: node.node.id,
        title: node.node.title ?? null,
        description: node.node.description ?? null,
        children: viewNodes(node.children, walk),
      };
    case 'repeat': {
      const instances = node.instances
        .filter((branch) => open(branch.guard))
        .map((branch) => ({
          number: branch.slot.index + 1,
          title: node.node.title
            ? node.node.title.replaceAll('{n}', String(branch.slot.index + 1))
            : null,
          children: viewNodes(branch.children, walk),
        }));
      if (instances.length === 0) return null;
      const addAnother = node.node.addAnother;
      const shown = addAnother
        ? Math.max(shownInstances(state, addAnother.buttonId, node.max), instances.length)
        : instances.length;
      return {
        kind: 'repeat',
        id: node.node.id,
        instances,
        addAnother: addAnother
          ? {
              buttonId: addAnother.buttonId,
              label: addAnother.label,
              shown,
              max: node.max,
              canAdd: shown < node.max,
            }
          : null,
      };
    }
    case 'tabs': {
      const chosen = chosenTab(node.node, state);
      const branch = node.tabs.find((b) => b.tab.name === chosen);
      if (!branch || !open(branch.guard)) return null;
      return {
        kind: 'tabs',
        id: node.node.id,
        label: node.node.label,
        defaultTab: node.node.defaultTab,
        chosen,
        tabs: node.node.tabs.map((tab) => ({ name: tab.name, label: tab.label })),
        children: viewNodes(branch.children, walk),
      };
    }
    case 'buttonTrigger': {
      if (!open(node.guard.parent)) return null;
      const revealed = open(node.guard);
      return {
        kind: 'buttonTrigger',
        id: node.node.id,
        label: node.node.label,
        revealed,
        children: revealed ? viewNodes(node.children, walk) : [],
      };
    }
    case 'checkboxTrigger': {
      if (!open(node.instance.guard)) return null;
      const checked = open(node.after.guard);
      const checkbox = questionView(node.instance, [], answers, walk.now);
      if (checkbox.questionKind !== 'checkbox')
        throw new Error(`Trigger "${node.node.id}" is not a checkbox`);
      return {
        kind: 'checkboxTrigger',
        id: node.node.id,
        checkbox,
        checked,
        children: viewNodes((checked ? node.after : node.before).children, walk),
      };
    }
    case 'exclusive': {
      const winner = node.cases.find((branch) => open(branch.guard));
      return winner
        ? { kind: 'group', id: node.node.id, children: viewNodes(winner.children, walk) }
        : null;
    }
    default:
      throw new Error(`Unhandled node ${JSON.stringify(type satisfies never)}`);
  }
}

/**
 * The resolved pages for the answers and UI state: only visible sections and questions, keys
 * expanded, options resolved. Renderers only draw this.
 */
export function visibleView(
  definition: Definition,
  answers: unknown,
  options: ViewOptions = {},
): PageView[] {
  const model = compile(definition);
  const walk: Walk = {
    answers: asAnswers(answers),
    state: options,
    memo: newMemo(model),
    now: options.now ?? new Date(),
  };
  return model.pages.map(({ page, children }) => pageView(page, children, walk));
}

/** One page of the resolved view, by page id or path. */
export function visiblePage(
  definition: Definition,
  answers: unknown,
  page: string,
  options: ViewOptions = {},
): PageView | null {
  const model = compile(definition);
  const found = model.pages.find((p) => p.page.id === page || p.page.path === page);
  if (!found) return null;
  const walk: Walk = {
    answers: asAnswers(answers),
    state: options,
    memo: newMemo(model),
    now: options.now ?? new Date(),
  };
  return pageView(found.page, found.children, walk);
}

/** A page's view from guards already (or lazily) decided in `memo`: no walk of its own. */
export function pageViewFromMemo(
  found: { readonly page: Page; readonly children: readonly CompiledNode[] },
  answers: Answers,
  state: ViewState,
  memo: GuardMemo,
  now: Date,
): PageView {
  return pageView(found.page, found.children, { answers, state, memo, now });
}

function pageView(page: Page, children: readonly CompiledNode[], walk: Walk): PageView {
  return { id: page.id, path: page.path, title: page.title, children: viewNodes(children, walk) };
}

/** True when the question under `key` is visible for these answers and this state. */
export function isVisible(
  definition: Definition,
  answers: unknown,
  key: string,
  state: ViewState = {},
): boolean {
  const model = compile(definition);
  const memo = newMemo(model);
  const input = asAnswers(answers);
  return (model.byKey.get(key) ?? []).some((instance) =>
    guardOpen(instance.guard, input, state, memo),
  );
}

/** Every question of a view in reading order (radio-driven content and trigger check boxes included). */
export function questionsOf(nodes: readonly (ViewNode | PageView)[]): QuestionView[] {
  const found: QuestionView[] = [];
  const visit = (node: ViewNode | PageView): void => {
    if (!('kind' in node)) return node.children.forEach(visit);
    switch (node.kind) {
      case 'question':
        found.push(node);
        if (node.questionKind === 'radio') node.content.forEach(visit);
        return;
      case 'paragraph':
        return;
      case 'repeat':
        return node.instances.forEach((instance) => instance.children.forEach(visit));
      case 'checkboxTrigger':
        found.push(node.checkbox);
        return node.children.forEach(visit);
      case 'section':
      case 'tabs':
      case 'buttonTrigger':
      case 'group':
        return node.children.forEach(visit);
      default:
        throw new Error(`Unknown view node ${JSON.stringify(node satisfies never)}`);
    }
  };
  nodes.forEach(visit);
  return found;
}
