/**
 * The file question's frame: its label, help and errors around whatever state it is in, marked busy
 * while it loads, uploads or converts. A small static module, so the placeholder shown while the
 * question's code loads (LazyFileQuestion) and the question itself draw the same frame.
 */
import type { ReactNode } from 'react';
import type { QuestionRendererProps } from '../registry';
import { FieldSet } from './Field';

/** The question's state as `data-file` shows it (a DocumentPhase, or `anonymous`). */
export type FileFrameState =
  'anonymous' | 'loading' | 'empty' | 'uploading' | 'converting' | 'present';

const BUSY: ReadonlySet<FileFrameState> = new Set(['loading', 'uploading', 'converting']);

export interface FileFrameProps extends Pick<
  QuestionRendererProps<'file'>,
  'view' | 'errors' | 'ids'
> {
  readonly state: FileFrameState;
  readonly children?: ReactNode;
}

/** The fieldset carries the question's id, so `#key` anchors (the error summary) reach it. */
export function FileFrame({ view, errors, ids, state, children }: FileFrameProps) {
  const { question } = view;
  return (
    <FieldSet
      ids={ids}
      label={question.label}
      required={view.required}
      help={question.help}
      errors={errors}
      id={ids.input}
      tabIndex={-1}
      data-file={state}
      aria-busy={BUSY.has(state) || undefined}
    >
      {children ?? null}
    </FieldSet>
  );
}
