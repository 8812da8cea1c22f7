/**
 * The resolved page for the current answers, read from the source's evaluation (computed once per
 * change for every reader) and handed to React only when what is visible changed, so typing into a
 * field does not re-render the page.
 */
import { useCallback, useRef, useSyncExternalStore } from 'react';
import {
  visiblePage,
  type Definition,
  type OptionEntry,
  type PageView,
  type QuestionView,
  type ViewNode,
  type ViewState,
} from '../../runtime';
import type { AnswerSource } from './store';

/** A string that changes exactly when the visible structure (or an option list) changes. */
export function viewSignature(nodes: readonly ViewNode[]): string {
  let out = '';
  for (const node of nodes) {
    switch (node.kind) {
      case 'question':
        out += questionSignature(node);
        break;
      case 'paragraph':
        out += `p${node.id}`;
        break;
      case 'repeat':
        out += `r${node.id}:${node.addAnother?.canAdd ? '+' : ''}[${node.instances.map((i) => viewSignature(i.children)).join('|')}]`;
        break;
      case 'tabs':
        out += `t${node.id}=${node.chosen}{${viewSignature(node.children)}}`;
        break;
      case 'buttonTrigger':
        out += `b${node.id}${node.revealed ? '+' : '-'}{${viewSignature(node.children)}}`;
        break;
      case 'checkboxTrigger':
        out += `c${node.id}${node.checked ? '+' : '-'}{${viewSignature(node.children)}}`;
        break;
      default:
        out += `${node.kind}${node.id}{${viewSignature(node.children)}}`;
    }
    out += ',';
  }
  return out;
}

function questionSignature(view: QuestionView): string {
  const head = `q${view.key}${view.required ? '*' : ''}`;
  switch (view.questionKind) {
    case 'radio': {
      const content = view.content.length > 0 ? `{${viewSignature(view.content)}}` : '';
      return head + optionsSignature(view.options) + content;
    }
    case 'select':
      return head + optionsSignature(view.options);
    case 'monthYear':
      return head + optionsSignature(view.yearOptions);
    default:
      return head;
  }
}

/** An option list's length and first real entry (a changed list changes either). */
function optionsSignature(options: readonly OptionEntry[]): string {
  return `(${options.length}:${options[1]?.value ?? ''})`;
}

/** Reads every answer the definition may need: the source exposes single keys, so wrap it. */
function answersProxy(source: AnswerSource): Record<string, unknown> {
  return new Proxy({} as Record<string, unknown>, {
    get: (_target, key) => (typeof key === 'string' ? source.getAnswer(key) : undefined),
    has: (_target, key) => typeof key === 'string' && source.getAnswer(key) !== undefined,
    getOwnPropertyDescriptor: (_target, key) =>
      typeof key === 'string' && source.getAnswer(key) !== undefined
        ? { configurable: true, enumerable: true, value: source.getAnswer(key), writable: false }
        : undefined,
  });
}

export function usePageView(
  definition: Definition,
  page: string,
  source: AnswerSource,
  state: ViewState,
  now?: Date,
): PageView | null {
  const cache = useRef<{
    signature: string;
    view: PageView | null;
    state: ViewState;
    page: string;
  } | null>(null);
  const compute = useCallback(() => {
    const view = source.evaluation
      ? source.evaluation(state, now).page(page)
      : visiblePage(definition, answersProxy(source), page, { ...state, now });
    if (cache.current?.view === view) return view;
    const signature = view ? viewSignature(view.children) : '';
    const previous = cache.current;
    if (
      previous &&
      previous.signature === signature &&
      previous.state === state &&
      previous.page === page
    )
      return previous.view;
    cache.current = { signature, view, state, page };
    return view;
  }, [definition, page, source, state, now]);
  return useSyncExternalStore(source.subscribe, compute, compute);
}
