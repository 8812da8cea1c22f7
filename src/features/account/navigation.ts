/** What the account cards read from navigation state and the query string (SPEC 2.2, 2.5). */
import { useRouterState, useSearch } from '@tanstack/react-router';
import type { HistoryState } from '@tanstack/react-router';
import { anonymousAnswers, hasAnyAnswer } from '../../session/anonymousAnswers';
import type { StudentAnswers } from '../../session/navigationState';

/** The current entry's navigation state (studentAnswers, successMessage, errorMessage, username). */
export function useNavigationState(): HistoryState {
  return useRouterState({ select: (s) => s.location.state });
}

/** D159: the form page to land on after login, as the account route's search validated it. */
export function useReturnTo(): string | undefined {
  return useSearch({ strict: false }).next;
}

/**
 * The answers to carry on: those received in navigation state, else the anonymous answers kept in
 * sessionStorage (a reload or a link opened in a new tab loses navigation state), else none.
 */
export function carriedAnswers(state: HistoryState): StudentAnswers | undefined {
  if (state.studentAnswers) return state.studentAnswers;
  const kept = anonymousAnswers();
  return hasAnyAnswer(kept) ? kept : undefined;
}

/** A non-empty string from navigation state, else undefined. */
export function stateText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * One query-string parameter as text. The router's default search parser reads JSON, so `?id=123`
 * arrives as a number: turn it back into text.
 */
export function searchParam(search: object, key: string): string {
  const value: unknown = Object.entries(search).find(([name]) => name === key)?.[1];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}
