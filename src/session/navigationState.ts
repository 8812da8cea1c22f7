/** What travels in navigation state between screens (SPEC 2.2, 2.5). */
import type {} from '@tanstack/react-router';
import type { AnswerValue } from '../../renderers/registry';

export type StudentAnswers = Record<string, AnswerValue>;

declare module '@tanstack/react-router' {
  interface HistoryState {
    studentAnswers?: StudentAnswers;
    successMessage?: string;
    errorMessage?: string;
    username?: string;
    /** After a 401: whose unsaved answers `studentAnswers` are (SECURITY.md REQ-R-4). */
    unsavedFor?: string;
    /**
     * The applicant arrives without asking for a page (after login, at `/`): the session resumes on
     * the last page (SPEC 2.2, D113). An address of a page is where they go.
     */
    resume?: boolean;
  }
}

export {};
