import { useRef } from 'react';
import { useFormContext } from '../react/context';
import {
  NO_DOCUMENT,
  formatFileSize,
  useDocument,
  type DocumentSource,
  type DocumentState,
} from '../react/documents';
import type { QuestionRendererProps } from '../registry';
import { controlProps } from './Field';
import { FileFrame } from './FileFrame';
import fileStyles from './file.module.css';
import styles from './interactive.module.css';

/**
 * The words of the view without a document source (a read-only view, as an integrator or a test may
 * draw; the app always passes a source, whose texts come from its definition). Like the print set's
 * own wording, they belong to the renderer set (docs/decisions/ D35).
 */
const readOnlyText = {
  attached: 'Document attached',
  none: 'No file attached.',
} as const;

const staticSource = (value: unknown): DocumentState =>
  value === 'ANSWERED' ? { phase: 'present', file: null, problem: null } : NO_DOCUMENT;

/**
 * A document question (SPEC 4.4): no file ("Choose file", or why it waits when logged out), the
 * upload and conversion in progress, or the file as "name (size)" with Delete. A refused file's
 * message (SPEC 5.6) joins the question's errors. Its words come with the document source. Without
 * a source (a read-only view) it only says whether a file is there.
 */
export function FileQuestion(props: QuestionRendererProps<'file'>) {
  const { documents } = useFormContext();
  if (!documents) {
    const state = staticSource(props.value);
    return (
      <FileFrame {...props} state={state.phase}>
        <p className={styles.note}>
          {state.phase === 'present' ? readOnlyText.attached : readOnlyText.none}
        </p>
      </FileFrame>
    );
  }
  if (props.anonymous)
    return (
      <FileFrame {...props} state="anonymous">
        <p className={styles.note}>{documents.text.anonymous}</p>
      </FileFrame>
    );
  return <LiveFileQuestion {...props} documents={documents} />;
}

function LiveFileQuestion(props: QuestionRendererProps<'file'> & { documents: DocumentSource }) {
  const { documents, view } = props;
  const { text } = documents;
  const state = useDocument(documents, view.key);
  const input = useRef<HTMLInputElement>(null);
  const busy =
    state.phase === 'loading' || state.phase === 'uploading' || state.phase === 'converting';
  const errors = state.problem ? [...props.errors, state.problem] : props.errors;
  const progress =
    state.phase === 'loading'
      ? text.loading
      : state.phase === 'uploading'
        ? text.uploading(state.file?.name ?? '')
        : state.phase === 'converting'
          ? text.converting(state.file?.name ?? '')
          : '';
  const statusId = `${view.key}--status`;
  return (
    <FileFrame {...props} errors={errors} state={state.phase}>
      <input
        ref={input}
        type="file"
        hidden
        name={view.key}
        accept={documents.accept}
        data-testid={`${view.key}--file`}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // The same file may be chosen again after a refusal.
          event.target.value = '';
          if (files.length > 0) documents.choose(view.key, files);
        }}
      />
      <div role="status" id={statusId} className={fileStyles.fileStatus}>
        {busy ? (
          <>
            <span className={fileStyles.spinner} aria-hidden="true" />
            <span>{progress}</span>
          </>
        ) : null}
      </div>
      {state.phase === 'present' ? (
        <div className={styles.inputRow}>
          <p className={fileStyles.fileName}>
            {state.file
              ? `${state.file.name} (${formatFileSize(state.file.size)})`
              : readOnlyText.attached}
          </p>
          <button
            type="button"
            className={styles.button}
            aria-label={state.file ? text.deleteLabel(state.file.name) : text.delete}
            onClick={() => documents.requestDelete(view.key)}
          >
            {text.delete}
          </button>
        </div>
      ) : (
        <div className={styles.inputRow}>
          <button
            type="button"
            className={styles.button}
            disabled={busy}
            onClick={() => input.current?.click()}
            {...controlProps(props.ids, view.question.help, errors, busy ? statusId : undefined)}
          >
            {text.choose}
          </button>
        </div>
      )}
      {/* The refusal is announced once, where it appears; the list above shows it. */}
      <div role="alert" className={styles.visuallyHidden}>
        {state.problem ?? ''}
      </div>
    </FileFrame>
  );
}
