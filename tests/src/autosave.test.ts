/**
 * SECURITY.md REQ-R-1 (autosave) and REQ-R-2 (conflicts), client side: the Autosaver against a fake
 * clock and a scripted server.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AUTOSAVE_DEBOUNCE_MS,
  AUTOSAVE_INTERVAL_MS,
  Autosaver,
  type SaveOutcome,
  type SaveState,
} from '../../src/features/application/autosave';

type Answers = Record<string, string>;

/** The form's answers and its set of unsaved keys, as FormAnswerSource keeps them. */
function fakeForm() {
  const values: Answers = {};
  const dirty = new Set<string>();
  return {
    values,
    type(key: string, value: string) {
      values[key] = value;
      dirty.add(key);
    },
    takeDirty() {
      const out: Answers = {};
      for (const key of dirty) out[key] = values[key] ?? '';
      dirty.clear();
      return out;
    },
    markDirty: (keys: Iterable<string>) => {
      for (const key of keys) dirty.add(key);
    },
    hasDirty: () => dirty.size > 0,
  };
}

interface Call {
  answers: Answers;
  base: number | undefined;
  resolve: (outcome: SaveOutcome) => void;
}

function setup(baseVersion = 4) {
  const form = fakeForm();
  const calls: Call[] = [];
  const states: SaveState[] = [];
  const onConflict = vi.fn();
  const onRefused = vi.fn();
  const autosaver = new Autosaver({
    ...form,
    send: (answers, base) =>
      new Promise<SaveOutcome>((resolve) =>
        calls.push({ answers: answers as Answers, base, resolve }),
      ),
    onState: (state) => states.push(state),
    onConflict,
    onRefused,
    baseVersion,
  });
  const change = (key: string, value: string) => {
    form.type(key, value);
    autosaver.changed();
  };
  return { form, calls, states, onConflict, onRefused, autosaver, change };
}

/** Lets resolved promises run their continuations. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('autosave', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('saves once, 2 s after the last keystroke, with every changed key', async () => {
    const { calls, change, autosaver } = setup();
    change('first_name', 'A');
    await vi.advanceTimersByTimeAsync(1_500);
    change('first_name', 'Ad');
    change('last_name', 'L');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DEBOUNCE_MS - 1);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.answers).toEqual({ first_name: 'Ad', last_name: 'L' });
    expect(calls[0]?.base).toBe(4);
    autosaver.stop();
  });

  it('keeps one save in flight; edits made meanwhile go in the next save, on the new version', async () => {
    const { calls, change, states, autosaver } = setup();
    change('first_name', 'Ada');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DEBOUNCE_MS);
    expect(calls).toHaveLength(1);
    change('city', 'London');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DEBOUNCE_MS * 3);
    expect(calls).toHaveLength(1); // still waiting for the first answer
    calls[0]?.resolve({ kind: 'saved', version: 5 });
    await settle();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DEBOUNCE_MS);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.answers).toEqual({ city: 'London' });
    expect(calls[1]?.base).toBe(5);
    calls[1]?.resolve({ kind: 'saved', version: 6 });
    await settle();
    expect(states.at(-1)).toBe('saved');
    autosaver.stop();
  });

  it('shows "retrying" after the first failure, backs off, and saves everything once the network is back', async () => {
    const { calls, change, states, autosaver } = setup();
    change('first_name', 'Ada');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DEBOUNCE_MS);
    calls[0]?.resolve({ kind: 'transient', error: new Error('reset') });
    await settle();
    expect(states.at(-1)).toBe('retrying');
    change('last_name', 'Lovelace');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.answers).toEqual({ first_name: 'Ada', last_name: 'Lovelace' });
    calls[1]?.resolve({ kind: 'transient', error: new Error('reset') });
    await settle();
    await vi.advanceTimersByTimeAsync(1_999);
    expect(calls).toHaveLength(2); // the second wait is 2 s
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    calls[2]?.resolve({ kind: 'saved', version: 5 });
    await settle();
    expect(states.at(-1)).toBe('saved');
    autosaver.stop();
  });

  it('hands conflicts to the applicant and bases the next save on the version the server reported', async () => {
    const { calls, change, onConflict, autosaver } = setup();
    change('conviction_comment', 'mine');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DEBOUNCE_MS);
    const conflicts = { conviction_comment: { mine: 'mine', theirs: 'theirs' } };
    calls[0]?.resolve({ kind: 'conflict', conflicts, version: 9 });
    await settle();
    expect(onConflict).toHaveBeenCalledWith(conflicts);
    change('conviction_comment', 'mine, kept');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DEBOUNCE_MS);
    expect(calls[1]?.base).toBe(9);
    autosaver.stop();
  });

  it('reports a refused autosave itself, but leaves an explicit save’s refusal to its caller', async () => {
    const { calls, change, onRefused, autosaver, form } = setup();
    change('first_name', 'x');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DEBOUNCE_MS);
    calls[0]?.resolve({ kind: 'refused', error: new Error('400') });
    await settle();
    expect(onRefused).toHaveBeenCalledTimes(1);
    expect(form.hasDirty()).toBe(true); // kept, not lost

    const explicit = autosaver.flush(true);
    await settle();
    calls[1]?.resolve({ kind: 'refused', error: new Error('400') });
    expect((await explicit)?.kind).toBe('refused');
    expect(onRefused).toHaveBeenCalledTimes(1);
    autosaver.stop();
  });

  it('passes on what other tabs saved before moving its base version past it', async () => {
    const form = fakeForm();
    const seen: string[] = [];
    let resolve: (outcome: SaveOutcome) => void = () => {};
    const autosaver = new Autosaver({
      ...form,
      send: () => new Promise<SaveOutcome>((r) => (resolve = r)),
      onState: () => {},
      onConflict: () => {},
      onRefused: () => {},
      onOthers: (others) => seen.push(`${JSON.stringify(others)} at base ${autosaver.baseVersion}`),
      baseVersion: 4,
    });
    form.type('city', 'London');
    const flushed = autosaver.flush(true);
    await settle();
    resolve({ kind: 'saved', version: 7, others: { first_name: 'Ada' } });
    await flushed;
    expect(seen).toEqual(['{"first_name":"Ada"} at base 4']);
    expect(autosaver.baseVersion).toBe(7);
    autosaver.stop();
  });

  it('flushes on its interval even without a new keystroke', async () => {
    const { calls, form, autosaver } = setup();
    form.type('first_name', 'Ada'); // changed without calling changed()
    await vi.advanceTimersByTimeAsync(AUTOSAVE_INTERVAL_MS);
    expect(calls).toHaveLength(1);
    autosaver.stop();
  });
});
