/**
 * The renderers' DocumentSource over the application's store: each question reads its own entry of
 * `documents`, whose object stays the same while its state does, so one question's change re-renders
 * that question only. The actions belong to the documents feature, which loads on demand (D37):
 * until it has handed them over, choosing and deleting do nothing.
 */
import type { DocumentSource, DocumentState, DocumentText } from '#renderers/react/index.ts';
import type { DocumentActions, DocumentsHost } from '#src/components/documentsTab.ts';
import { setDocuments, type ApplicationStore } from './state';

export interface StoreDocumentSource extends DocumentSource {
  /** The documents feature's actions (null when it unmounts). */
  setActions(actions: DocumentActions | null): void;
}

export function storeDocumentSource(
  store: ApplicationStore,
  options: {
    readonly accept: string;
    readonly text: DocumentText;
    /** What a question reads before the documents feature has written its state. */
    readonly fallback: DocumentState;
  },
): StoreDocumentSource {
  let actions: DocumentActions | null = null;
  return {
    accept: options.accept,
    text: options.text,
    stateOf: (key) => {
      const states = store.state.documents;
      return Object.prototype.hasOwnProperty.call(states, key)
        ? (states[key] ?? options.fallback)
        : options.fallback;
    },
    subscribe: (listener) => {
      const subscription = store.subscribe(() => listener());
      return () => subscription.unsubscribe();
    },
    choose: (key, files) => actions?.choose(key, files),
    requestDelete: (key) => actions?.requestDelete(key),
    setActions: (next) => {
      actions = next;
    },
  };
}

/** What the documents feature writes into: its states into the store, its actions into the source. */
export function documentsHost(store: ApplicationStore, source: StoreDocumentSource): DocumentsHost {
  return {
    setStates: (next) => setDocuments(store, next),
    setActions: (actions) => source.setActions(actions),
  };
}
