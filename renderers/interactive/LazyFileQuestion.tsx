/**
 * The file question is loaded when a page first shows one (only Final Steps does), so the first
 * page's JavaScript does not carry it (docs/decisions.md D28, D37).
 */
import { lazy, Suspense } from 'react';
import type { QuestionRendererProps } from '../registry';

const Loaded = lazy(() =>
  import('./FileQuestion').then((module) => ({ default: module.FileQuestion })),
);

export function FileQuestion(props: QuestionRendererProps<'file'>) {
  return (
    <Suspense fallback={null}>
      <Loaded {...props} />
    </Suspense>
  );
}
