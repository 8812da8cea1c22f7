/**
 * The file question is loaded when a page first shows one (only Final Steps does), so the first
 * page's JavaScript does not carry it (docs/decisions.md D28, D37). Until it arrives the question's
 * frame (label, help, errors) is already there, busy, so nothing moves when it does.
 */
import { lazy, Suspense } from 'react';
import type { QuestionRendererProps } from '../registry';
import { FieldSet } from './Field';

const Loaded = lazy(() =>
  import('./FileQuestion').then((module) => ({ default: module.FileQuestion })),
);

export function FileQuestion(props: QuestionRendererProps<'file'>) {
  const { view, errors, ids } = props;
  return (
    <Suspense
      fallback={
        <FieldSet
          ids={ids}
          label={view.question.label}
          required={view.required}
          help={view.question.help}
          errors={errors}
          id={ids.input}
          tabIndex={-1}
          data-file="loading"
          aria-busy
        >
          {null}
        </FieldSet>
      }
    >
      <Loaded {...props} />
    </Suspense>
  );
}
