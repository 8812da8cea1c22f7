/**
 * What the application layout and the documents feature agree on (D188): the layout builds these
 * props from its store, the documents feature renders from them, and neither imports the other.
 */
import type { AnswerSource, DocumentSource, DocumentState } from '#renderers/react/index.ts';

/** What the documents feature registers (SPEC 4.6's leaving a tab with document questions). */
export interface DocumentsApi {
  /**
   * SPEC 4.6: leaving a tab that holds these document questions. Refuses (shows File Upload in
   * Progress, answers false) while one is uploading, converting or still loading; otherwise deletes
   * each file's conversion, then its document answer, and answers true. A failed document-answer
   * deletion throws (the caller shows the tabs error).
   */
  leaveTab(keys: readonly string[]): Promise<boolean>;
}

/** The applicant's two actions on a document question, which the documents feature performs. */
export type DocumentActions = Pick<DocumentSource, 'choose' | 'requestDelete'>;

/** The few writes the documents feature makes into the application's state. */
export interface DocumentsHost {
  /** Each question's state, where the file renderer reads it. */
  setStates(next: Readonly<Record<string, DocumentState>>): void;
  /** Hands the renderers the feature's actions (null when it unmounts). */
  setActions(actions: DocumentActions | null): void;
}

/** What the layout hands the documents feature, which the router passes in as `DocumentsTab`. */
export interface DocumentsTabProps {
  readonly host: DocumentsHost;
  /** Every document question's answer key. */
  readonly keys: readonly string[];
  readonly answers: AnswerSource;
  /** Saves unsaved answers (SPEC 4.4 step 1 runs it beside the presigned-url request). */
  readonly saveAnswers: () => Promise<unknown>;
  /** Hands the tab API to the layout (null when unmounted). */
  readonly register: (api: DocumentsApi | null) => void;
}
