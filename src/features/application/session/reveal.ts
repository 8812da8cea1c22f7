/** A reveal trigger was pressed: the questions it guards show from now on (view state). */
import { patch, type ApplicationStore } from './state';

export function revealTrigger(store: ApplicationStore, triggerId: string): void {
  const viewState = store.state.viewState;
  patch(store, {
    viewState: { ...viewState, triggers: { ...viewState.triggers, [triggerId]: true } },
  });
}
