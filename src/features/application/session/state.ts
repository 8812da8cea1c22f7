/**
 * The application's one store (TanStack Store): status, page-change flag, view state, busy, save
 * state, conflicts, the errors shown and where the summary is to take focus. Controllers write it;
 * components select from it, so a save or an error does not re-render the page.
 */
import { Store } from '@tanstack/store';
import { useSelector } from '@tanstack/react-store';
import type { ViewState, WebStatus } from '../../../../runtime';
import { NO_ERRORS, type ErrorSource } from '../../../../renderers/react';
import type { Conflicts, SaveState } from '../autosave';

export type Errors = Readonly<Record<string, readonly string[]>>;

export interface ApplicationState {
  readonly webStatus: WebStatus | null;
  /** SPEC 2.3: a page change happened in this session (hides the welcome banner). */
  readonly hasChangedPage: boolean;
  readonly viewState: Required<ViewState>;
  /** A save, page change or submit is on its way (the buttons wait). */
  readonly busy: boolean;
  readonly saveState: SaveState;
  readonly conflicts: Conflicts;
  /** The errors the questions and the summary show (D77). */
  readonly errors: Errors;
  /** Submit found errors: the page at `path` moves focus to the summary; `tick` counts requests. */
  readonly summaryFocus: { readonly path: string | null; readonly tick: number };
}

export type ApplicationStore = Store<ApplicationState>;

export function createApplicationStore(
  initial: Pick<ApplicationState, 'webStatus' | 'viewState'>,
): ApplicationStore {
  return new Store<ApplicationState>({
    ...initial,
    hasChangedPage: false,
    busy: false,
    saveState: 'idle',
    conflicts: {},
    errors: {},
    summaryFocus: { path: null, tick: 0 },
  });
}

export function patch(store: ApplicationStore, changes: Partial<ApplicationState>): void {
  store.setState((state) => ({ ...state, ...changes }));
}

/** Replaces the errors; a key whose messages did not change keeps its array (its field stays). */
export function setErrors(store: ApplicationStore, next: Errors): void {
  const previous = store.state.errors;
  const merged: Record<string, readonly string[]> = {};
  let changed = Object.keys(next).length !== Object.keys(previous).length;
  for (const [key, messages] of Object.entries(next)) {
    const before = previous[key];
    const same =
      before !== undefined &&
      before.length === messages.length &&
      before.every((message, i) => message === messages[i]);
    merged[key] = same ? before : messages;
    if (!same) changed = true;
  }
  if (changed) patch(store, { errors: merged });
}

/** The errors as the renderers read them. */
export function errorSource(store: ApplicationStore): ErrorSource {
  return {
    errorsOf: (key) =>
      Object.prototype.hasOwnProperty.call(store.state.errors, key)
        ? (store.state.errors[key] ?? NO_ERRORS)
        : NO_ERRORS,
    subscribe: (listener) => {
      const subscription = store.subscribe(() => listener());
      return () => subscription.unsubscribe();
    },
  };
}

/** A component's slice of the store; it re-renders only when the slice changes. */
export function useApplicationState<T>(
  store: ApplicationStore,
  select: (state: ApplicationState) => T,
): T {
  return useSelector(store, select);
}
