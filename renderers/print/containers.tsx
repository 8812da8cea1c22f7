/**
 * Print containers: sections with their titles, repeated instances that hold answers, the chosen
 * tab's content only, revealed trigger content; never a button, a tab list or a navigation element.
 */
import {
  isEmpty,
  relatedKeys,
  type GroupView,
  type ParagraphView,
  type SectionView,
  type ViewNode,
} from '../../runtime';
import { useFormContext, type AnswerSource } from '../react';
import type {
  ButtonTriggerRendererProps,
  CheckboxTriggerRendererProps,
  ContainerProps,
  RepeatRendererProps,
  TabsRendererProps,
} from '../registry';
import { usePrintContext } from './PrintContext';
import { PRINT_CLASS as c } from './stylesheet';

/** True when any question under these nodes holds an answer (or has a document). */
export function holdsAnswers(
  nodes: readonly ViewNode[],
  answers: AnswerSource,
  documents: ReadonlySet<string>,
): boolean {
  return nodes.some((node) => {
    switch (node.kind) {
      case 'question': {
        const keys = [node.key, ...relatedKeys(node)];
        if (node.questionKind === 'checkbox') {
          const value = answers.getAnswer(node.key);
          if (value === true || value === 'true') return true;
        } else if (keys.some((key) => !isEmpty(answers.getAnswer(key)))) return true;
        if (documents.has(node.key)) return true;
        return node.questionKind === 'radio' && holdsAnswers(node.content, answers, documents);
      }
      case 'paragraph':
        return false;
      case 'tabs':
        return true; // the chosen tab is printed whatever its content holds
      case 'repeat':
        return node.instances.some((instance) =>
          holdsAnswers(instance.children, answers, documents),
        );
      case 'checkboxTrigger':
        return (
          holdsAnswers([node.checkbox], answers, documents) ||
          holdsAnswers(node.children, answers, documents)
        );
      default:
        return holdsAnswers(node.children, answers, documents);
    }
  });
}

export function PrintParagraph({ view }: { readonly view: ParagraphView }) {
  return <p className={c.paragraph}>{view.text}</p>;
}

/** A section prints only when something in it holds an answer: no heading over nothing. */
export function PrintSection({ view, children }: ContainerProps<SectionView>) {
  const { answers } = useFormContext();
  const { documents } = usePrintContext();
  if (!holdsAnswers(view.children, answers, documents)) return null;
  return (
    <section className={c.section}>
      {view.title ? <h3 className={c.sectionTitle}>{view.title}</h3> : null}
      {view.description ? <p className={c.paragraph}>{view.description}</p> : null}
      {children}
    </section>
  );
}

export function PrintGroup({ children }: ContainerProps<GroupView>) {
  return <div className={c.group}>{children}</div>;
}

/**
 * Repeated slots and add-another instances: only those that hold answers (SPEC 2.9); a group
 * nobody filled in prints nothing.
 */
export function PrintRepeat({ view, instances }: RepeatRendererProps) {
  const { answers } = useFormContext();
  const { documents } = usePrintContext();
  const holding = instances.filter((instance) => {
    const nodes = view.instances.find((i) => i.number === instance.number)?.children ?? [];
    return holdsAnswers(nodes, answers, documents);
  });
  return (
    <div className={c.repeat} data-repeat={view.id}>
      {holding.map((instance) => (
        <div key={instance.number} className={c.instance}>
          {instance.title ? <h4 className={c.instanceTitle}>{instance.title}</h4> : null}
          {instance.content}
        </div>
      ))}
    </div>
  );
}

/** SPEC 2.9, 4.6: only the chosen tab's content, introduced by the group's label and the tab's. */
export function PrintTabs({ view, children }: TabsRendererProps) {
  const chosen = view.tabs.find((tab) => tab.name === view.chosen);
  return (
    <div className={c.tabs} data-tabs={view.id}>
      <div className={`${c.field} ${c.explained}`}>
        <span className={c.label}>{view.label}</span>{' '}
        <span className={c.value}>{chosen?.label ?? view.chosen}</span>
      </div>
      {children}
    </div>
  );
}

/** Content behind a button shows once revealed (the runtime reveals it when it holds answers). */
export function PrintButtonTrigger({ view, children }: ButtonTriggerRendererProps) {
  return view.revealed ? <div className={c.group}>{children}</div> : null;
}

/** A check box and what it reveals, kept on one page where they meet (D197). */
export function PrintCheckboxTrigger({ checkbox, children }: CheckboxTriggerRendererProps) {
  return (
    <div className={c.group}>
      <div className={c.explained}>{checkbox}</div>
      {children}
    </div>
  );
}
