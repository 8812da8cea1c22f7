/**
 * The autosave state as a tiny external store: the status line subscribes to it, so a save does not
 * re-render the page.
 */
import { useSyncExternalStore } from 'react';
import type { SaveState } from './autosave';

export interface SaveStatusStore {
  get(): SaveState;
  set(state: SaveState): void;
  subscribe(listener: () => void): () => void;
}

export function createSaveStatusStore(): SaveStatusStore {
  let state: SaveState = 'idle';
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(next) {
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useSaveState(store: SaveStatusStore): SaveState {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
