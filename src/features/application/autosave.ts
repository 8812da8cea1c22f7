/**
 * Autosave (SECURITY.md REQ-R-1 and REQ-R-2), free of React so it can be tested with a fake clock:
 * a save 2 s after the last change, an interval flush, one save in flight at a time (changes made
 * meanwhile go in the next one), retries with back-off while the network or server fails, and the
 * answers' version sent as If-Match so a field changed elsewhere comes back as a conflict instead of
 * being overwritten.
 */
import type { AnswerValue } from '#renderers/registry.ts';

export type SaveState = 'idle' | 'saving' | 'saved' | 'retrying';

export type Conflicts = Record<string, { mine: unknown; theirs: unknown }>;

/** What a save attempt ended with. */
export type SaveOutcome =
  | { kind: 'saved'; version?: number; message?: string; others?: Record<string, unknown> }
  | { kind: 'conflict'; conflicts: Conflicts; version?: number; others?: Record<string, unknown> }
  /** Worth trying again: no connection, a 5xx, a 429. */
  | { kind: 'transient'; error: unknown }
  /** Not worth repeating as is (a 400, the application was submitted): reported, kept unsaved. */
  | { kind: 'refused'; error: unknown };

export interface AutosaveOptions {
  takeDirty(): Record<string, AnswerValue>;
  markDirty(keys: Iterable<string>): void;
  hasDirty(): boolean;
  send(answers: Record<string, AnswerValue>, baseVersion: number | undefined): Promise<SaveOutcome>;
  onState(state: SaveState): void;
  onConflict(conflicts: Conflicts): void;
  /**
   * Answers other tabs or devices saved since the base version: taken in before the base version
   * moves past them (else a later save would overwrite them unseen).
   */
  onOthers?(others: Record<string, unknown>): void;
  onRefused(error: unknown): void;
  baseVersion?: number;
  debounceMs?: number;
  intervalMs?: number;
  maxBackoffMs?: number;
}

export const AUTOSAVE_DEBOUNCE_MS = 2_000;
export const AUTOSAVE_INTERVAL_MS = 10_000;
export const AUTOSAVE_MAX_BACKOFF_MS = 30_000;

export class Autosaver {
  private version: number | undefined;
  private debounce: ReturnType<typeof setTimeout> | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private interval: ReturnType<typeof setInterval> | null = null;
  private inFlight: Promise<void> | null = null;
  private inFlightKeys: readonly string[] = [];
  private failures = 0;
  private stopped = false;

  constructor(private readonly options: AutosaveOptions) {
    this.version = options.baseVersion;
    this.interval = setInterval(
      () => void this.flush(),
      options.intervalMs ?? AUTOSAVE_INTERVAL_MS,
    );
  }

  /** Keys of the save in flight: sent, not yet acknowledged. */
  pendingKeys(): readonly string[] {
    return this.inFlightKeys;
  }

  /** The answers' version the next save is based on. */
  get baseVersion(): number | undefined {
    return this.version;
  }

  /** An answer changed: save once the applicant pauses. */
  changed(): void {
    if (this.stopped) return;
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = null;
      void this.flush();
    }, this.options.debounceMs ?? AUTOSAVE_DEBOUNCE_MS);
  }

  /**
   * Saves what is unsaved now, after the save in flight if there is one, and tells how that went
   * (null: nothing was unsaved). `explicit`: the applicant asked (Save, a page change, submit), so a
   * refusal is the caller's to report.
   */
  async flush(explicit = false): Promise<SaveOutcome | null> {
    if (this.debounce) {
      clearTimeout(this.debounce);
      this.debounce = null;
    }
    while (this.inFlight) await this.inFlight;
    if (!this.options.hasDirty() || this.stopped) return null;
    const attempt = this.saveOnce(explicit);
    this.inFlight = attempt.then(() => undefined);
    try {
      return await attempt;
    } finally {
      this.inFlight = null;
    }
  }

  /** Takes the server's answer to a conflict into account (keep mine: save again on this version). */
  adoptVersion(version: number | undefined): void {
    if (version !== undefined) this.version = Math.max(this.version ?? 0, version);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of [this.debounce, this.retry]) if (timer) clearTimeout(timer);
    if (this.interval) clearInterval(this.interval);
  }

  private async saveOnce(explicit: boolean): Promise<SaveOutcome | null> {
    const answers = this.options.takeDirty();
    if (Object.keys(answers).length === 0) return null;
    this.options.onState('saving');
    let outcome: SaveOutcome;
    this.inFlightKeys = Object.keys(answers);
    try {
      outcome = await this.options.send(answers, this.version);
    } catch (error) {
      outcome = { kind: 'refused', error };
    } finally {
      this.inFlightKeys = [];
    }
    switch (outcome.kind) {
      case 'saved':
        this.failures = 0;
        if (outcome.others) this.options.onOthers?.(outcome.others);
        this.adoptVersion(outcome.version);
        this.options.onState(this.options.hasDirty() ? 'saving' : 'saved');
        if (this.options.hasDirty()) this.changed();
        return outcome;
      case 'conflict':
        this.failures = 0;
        if (outcome.others) this.options.onOthers?.(outcome.others);
        this.adoptVersion(outcome.version);
        this.options.onState('saved');
        this.options.onConflict(outcome.conflicts);
        return outcome;
      case 'transient':
        this.options.markDirty(Object.keys(answers));
        this.failures += 1;
        this.options.onState('retrying');
        this.scheduleRetry();
        return outcome;
      case 'refused':
        this.options.markDirty(Object.keys(answers));
        this.options.onState('idle');
        if (!explicit) this.options.onRefused(outcome.error);
        return outcome;
    }
  }

  private scheduleRetry(): void {
    if (this.retry || this.stopped) return;
    const max = this.options.maxBackoffMs ?? AUTOSAVE_MAX_BACKOFF_MS;
    const delay = Math.min(max, 1_000 * 2 ** (this.failures - 1));
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.flush();
    }, delay);
  }
}
