/**
 * The file question is loaded on demand (only Final Steps shows one), so the first page's
 * JavaScript does not carry it (docs/decisions/ D28, D37, D110). Until it arrives the question's
 * frame (label, help, errors) is already there, busy, so nothing moves when it does.
 */
import type { QuestionRendererProps } from '../registry';
import { FileFrame } from './FileFrame';
import { onDemand } from './onDemand';

export const FileQuestion = onDemand(
  () => import('./FileQuestion').then((module) => module.FileQuestion),
  (props: QuestionRendererProps<'file'>) => <FileFrame {...props} state="loading" />,
);
