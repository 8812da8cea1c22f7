/**
 * The file question is loaded when a page first shows one (only Final Steps does), so the first
 * page's JavaScript does not carry it (docs/decisions/ D28, D37). Until it arrives the question's
 * frame (label, help, errors) is already there, busy, so nothing moves when it does.
 */
import { lazy, Suspense } from 'react';
import type { QuestionRendererProps } from '../registry';
import { FileFrame } from './FileFrame';

const Loaded = lazy(() =>
  import('./FileQuestion').then((module) => ({ default: module.FileQuestion })),
);

export function FileQuestion(props: QuestionRendererProps<'file'>) {
  return (
    <Suspense fallback={<FileFrame {...props} state="loading" />}>
      <Loaded {...props} />
    </Suspense>
  );
}
