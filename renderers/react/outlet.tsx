/**
 * Draws a resolved page (the runtime's view model) with the renderer set of the context. Visibility
 * was decided by the runtime; the outlet only walks what is visible.
 */
import { memo, useCallback, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { relatedKeys, type PageView, type QuestionView, type ViewNode } from '../../runtime';
import {
  preloadRenderers,
  type AnswerValue,
  type QuestionRendererProps,
  type RendererSet,
  type RepeatRemoval,
} from '../registry';
import { useFormContext, type RepeatActions } from './context';
import { useAnswer, useErrors, type AnswerSource } from './store';

/**
 * Subscribes to the keys a question reads besides its own, and returns a reader whose identity
 * changes when one of them does (so the question re-renders).
 */
function useRelatedAnswers(source: AnswerSource, view: QuestionView): (key: string) => unknown {
  const keys = useMemo(() => relatedKeys(view), [view]);
  const signature = useSyncExternalStore(
    source.subscribe,
    () => keys.map((key) => JSON.stringify(source.getAnswer(key) ?? null)).join('\u0000'),
    () => '',
  );
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => (key: string) => source.getAnswer(key), [source, signature]);
}

/** Ids derived from the answer key: the input carries the key itself, so `#<key>` anchors reach it. */
export function fieldIds(key: string) {
  return { input: key, errors: `${key}--errors`, help: `${key}--help` };
}

const QuestionSlot = memo(function QuestionSlot({ view }: { view: QuestionView }) {
  const { renderers, answers, errors, anonymous, actions } = useFormContext();
  const value = useAnswer(answers, view.key);
  // The year of a month/year pair and a lookup's filled fields re-render this question too.
  const related = useRelatedAnswers(answers, view);
  const answerOf = useCallback((key: string) => related(key), [related]);
  const messages = useErrors(errors, view.key);
  const onValueChange = useCallback(
    (next: AnswerValue) => answers.setAnswers({ [view.key]: next }),
    [answers, view.key],
  );
  const onAnswersChange = useCallback(
    (next: Readonly<Record<string, AnswerValue>>) => answers.setAnswers(next),
    [answers],
  );
  const onBlur = useCallback(() => actions.onBlur?.(view.key), [actions, view.key]);
  const ids = useMemo(() => fieldIds(view.key), [view.key]);
  // The set's entry for this kind takes this kind's view; TypeScript does not tie the two together.
  const Renderer = renderers[view.questionKind] as (props: QuestionRendererProps) => ReactNode;
  return (
    <Renderer
      view={view}
      value={value}
      answerOf={answerOf}
      onValueChange={onValueChange}
      onAnswersChange={onAnswersChange}
      onBlur={onBlur}
      errors={messages}
      ids={ids}
      anonymous={anonymous}
    />
  );
});

function renderNodes(nodes: readonly ViewNode[], set: RendererSet): ReactNode {
  return nodes.map((node) => <NodeOutlet key={nodeKey(node)} node={node} set={set} />);
}

function nodeKey(node: ViewNode): string {
  switch (node.kind) {
    case 'question':
      return `q:${node.key}`;
    case 'checkboxTrigger':
      return `ct:${node.id}:${node.checkbox.key}`;
    default:
      return `${node.kind}:${node.id}`;
  }
}

function NodeOutlet({ node, set }: { node: ViewNode; set: RendererSet }): ReactNode {
  const { actions } = useFormContext();
  switch (node.kind) {
    case 'question':
      return (
        <>
          <QuestionSlot view={node} />
          {node.questionKind === 'radio' && node.content.length > 0
            ? renderNodes(node.content, set)
            : null}
        </>
      );
    case 'paragraph':
      return <set.paragraph view={node} />;
    case 'section':
      return <set.section view={node}>{renderNodes(node.children, set)}</set.section>;
    case 'group':
      return <set.group view={node}>{renderNodes(node.children, set)}</set.group>;
    case 'repeat': {
      const addAnother = node.addAnother;
      const onAddAnother =
        addAnother && addAnother.canAdd && actions.onAddAnother
          ? () => actions.onAddAnother?.(addAnother.buttonId)
          : undefined;
      return (
        <set.repeat
          view={node}
          instances={node.instances.map((instance) => ({
            number: instance.number,
            title: instance.title,
            content: renderNodes(instance.children, set),
          }))}
          onAddAnother={onAddAnother}
          removal={
            actions.repeats && addAnother ? repeatRemoval(actions.repeats, node.id) : undefined
          }
        >
          {null}
        </set.repeat>
      );
    }
    case 'tabs':
      return (
        <set.tabs
          view={node}
          onTabChange={
            actions.onTabChange ? (tab) => actions.onTabChange?.(node.id, tab) : undefined
          }
        >
          {renderNodes(node.children, set)}
        </set.tabs>
      );
    case 'buttonTrigger':
      return (
        <set.buttonTrigger view={node} onReveal={() => actions.onReveal?.(node.id)}>
          {renderNodes(node.children, set)}
        </set.buttonTrigger>
      );
    case 'checkboxTrigger':
      return (
        <set.checkboxTrigger view={node} checkbox={<QuestionSlot view={node.checkbox} />}>
          {renderNodes(node.children, set)}
        </set.checkboxTrigger>
      );
    default:
      throw new Error(`Unhandled view node ${JSON.stringify(node satisfies never as unknown)}`);
  }
}

/** Draws one resolved page with the context's renderer set. */
export function PageOutlet({ page }: { page: PageView }) {
  const { renderers, whenIdle: whenAppIdle } = useFormContext();
  // Once the page has drawn, the renderers later pages may need load while the browser is idle.
  useEffect(
    () => (whenAppIdle ?? whenIdle)(() => preloadRenderers(renderers)),
    [renderers, whenAppIdle],
  );
  return <>{renderNodes(page.children, renderers)}</>;
}

/** The browser's idle callbacks, where there are any: these renderers also print on the server. */
const idle = globalThis as {
  requestIdleCallback?: (task: () => void, options: { timeout: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
};

/** Runs `task` when the browser is idle (soon after, where requestIdleCallback is missing); returns the cancel. */
function whenIdle(task: () => void): () => void {
  // Called on `globalThis`: detached from it, the browser's callbacks throw.
  if (idle.requestIdleCallback && idle.cancelIdleCallback) {
    const handle = idle.requestIdleCallback(task, { timeout: 2000 });
    return () => idle.cancelIdleCallback?.(handle);
  }
  const handle = setTimeout(task, 200);
  return () => clearTimeout(handle);
}

/** One repeat's side of the app's removal actions (D148). */
function repeatRemoval(repeats: RepeatActions, repeatId: string): RepeatRemoval {
  return {
    canRemove: (number) => repeats.canRemove(repeatId, number),
    answered: (number) => repeats.answered(repeatId, number),
    remove: (number) => repeats.remove(repeatId, number),
    text: repeats.text,
  };
}
