/** Evaluating guards: one walk fills a memo; a single question's chain is read directly. */
import { type Tabs } from './format';
import { type Answers } from './values';
import { instrumentation, type CompiledModel, type Guard, type ViewState } from './compiledModel';

/** Shown instances of an add-another group: the saved count, at least 1, at most the maximum. */
export function shownInstances(state: ViewState, buttonId: string, max: number): number {
  const count = state.addAnother?.[buttonId];
  if (typeof count !== 'number' || !Number.isFinite(count)) return 1;
  return Math.min(Math.max(Math.floor(count), 1), max);
}

/** The chosen tab of a group: the saved choice when it names a tab, else the default. */
export function chosenTab(node: Tabs, state: ViewState): string {
  const chosen = state.tabs?.[node.id];
  return chosen !== undefined && node.tabs.some((tab) => tab.name === chosen)
    ? chosen
    : node.defaultTab;
}

/** Per-call memo of guard results: 0 unknown, 1 holds, 2 fails. */
export type GuardMemo = Int8Array;

export function newMemo(model: CompiledModel): GuardMemo {
  instrumentation.onWalk?.();
  return new Int8Array(model.guardCount);
}

let scratch = new Int8Array(64);

/**
 * A cleared memo reused by every call (full validation allocates nothing for it): only for a walk
 * that ends before anything else may ask for it, as no check or guard calls back into the runtime.
 */
export function scratchMemo(model: CompiledModel): GuardMemo {
  instrumentation.onWalk?.();
  if (scratch.length < model.guardCount) scratch = new Int8Array(model.guardCount * 2);
  else scratch.fill(0, 0, model.guardCount);
  return scratch;
}

/** True when the guard and all its parents hold. */
export function guardOpen(
  guard: Guard | null,
  answers: Answers,
  state: ViewState,
  memo: GuardMemo,
): boolean {
  if (guard === null) return true;
  const known = memo[guard.id];
  if (known) return known === 1;
  const open = guardOpen(guard.parent, answers, state, memo) && guard.holds(answers, state);
  memo[guard.id] = open ? 1 : 2;
  return open;
}

/** The same as guardOpen without a memo: for one question, whose chain is short (what a keystroke costs). */
export function chainOpen(guard: Guard | null, answers: Answers, state: ViewState): boolean {
  for (let current = guard; current !== null; current = current.parent) {
    if (!current.holds(answers, state)) return false;
  }
  return true;
}
