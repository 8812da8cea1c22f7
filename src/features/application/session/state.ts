/**
 * The application's one store (TanStack Store): status, page-change flag, view state, busy, save
 * state, conflicts, the errors shown, each document question's state and where the summary is to
 * take focus. Controllers write it; components select from it, so a save, an error or an upload
 * does not re-render the page. A new field is one property here and its initial value below.
 */
import { Store } from '@tanstack/store';
import { useSelector } from '@tanstack/react-store';
import type { WebStatus } from '#contract';
import type { ViewState } from '#runtime';
import {
  NO_ERRORS,
  keepUnchanged,
  sameMessages,
  type DocumentState,
  type ErrorSource,
} from '#renderers/react/index.ts';
import type { Conflicts, SaveState } from '../autosave';

export type Errors = Readonly<Record<string, readonly string[]>>;
/** SPEC 4.4: each document question's state, as its file renderer draws it. */
export type DocumentStates = Readonly<Record<string, DocumentState>>;

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
  /** Written by the documents feature once it has loaded; until then a key reads the fallback. */
  readonly documents: DocumentStates;
  /** Submit found errors: the page at `path` moves focus to the summary; `tick` counts requests. */
  readonly summaryFocus: { readonly path: string | null; readonly tick: number };
  readonly saveNotice: SaveNotice | null;
  /** The last failed action's message, until its toast closes (./faults.ts). */
  readonly fault: Fault | null;
}

/** SPEC 8: what a failed action shows; `unexpected`: not a server's refusal; `tick` counts them. */
export interface Fault {
  readonly message: string;
  readonly unexpected: boolean;
  readonly tick: number;
}

/**
 * D158: what a Save, or a move away from a page with answers needing attention, tells the page at
 * `path`: the saved message, then how many answers of page `pageId` need attention (counted live
 * from the errors shown, so fixing one lowers it). `tick` counts notices: each takes focus.
 */
export interface SaveNotice {
  readonly path: string;
  readonly pageId: string;
  readonly message: string;
  readonly tick: number;
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
    documents: {},
    summaryFocus: { path: null, tick: 0 },
    saveNotice: null,
    fault: null,
  });
}

export function patch(store: ApplicationStore, changes: Partial<ApplicationState>): void {
  store.setState((state) => ({ ...state, ...changes }));
}

const sameDocument = (a: DocumentState, b: DocumentState) =>
  a.phase === b.phase &&
  a.problem === b.problem &&
  a.file?.name === b.file?.name &&
  a.file?.size === b.file?.size;

/** SPEC 4.8: the shown instances of one add-another group. */
export function setAddAnotherCount(store: ApplicationStore, buttonId: string, count: number): void {
  const viewState = store.state.viewState;
  patch(store, {
    viewState: { ...viewState, addAnother: { ...viewState.addAnother, [buttonId]: count } },
  });
}

/** Replaces the errors; a key whose messages did not change keeps its array (its field stays). */
export function setErrors(store: ApplicationStore, next: Errors): void {
  const errors = keepUnchanged(store.state.errors, next, sameMessages);
  if (errors !== store.state.errors) patch(store, { errors });
}

/** Replaces the document states; a question whose state did not change keeps its object. */
export function setDocuments(store: ApplicationStore, next: DocumentStates): void {
  const documents = keepUnchanged(store.state.documents, next, sameDocument);
  if (documents !== store.state.documents) patch(store, { documents });
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
