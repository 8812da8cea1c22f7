/**
 * Saving a logged-in applicant's answers (SECURITY.md REQ-R-1/2/4/5): the Autosaver wired to the
 * server, conflicts to resolve, explicit saves that throw what the applicant must see, the unsaved
 * answers a 401 or a logout takes along, and the request that outlives a closing page.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AnswerValue } from '#renderers/registry.ts';
import { serverMessages } from '#contract';
import { ServerError, UnauthorizedError } from '#src/api/client.ts';
import { registerFlush, registerUnsaved } from '#src/session/flush.ts';
import { mutate } from '../api/mutate';
import { saveAnswersMutation, saveAnswersRequest } from '../api/saveAnswers';
import { Autosaver, type Conflicts, type SaveOutcome } from '../autosave';
import type { FormAnswerSource } from '../answerSource';
import type { PagePort } from './page';
import { patch, type ApplicationStore } from './state';

export interface AnswerSavingOptions {
  readonly answers: FormAnswerSource;
  readonly store: ApplicationStore;
  readonly queryClient: QueryClient;
  readonly baseVersion: number | undefined;
  readonly username: string | null;
  readonly page: PagePort;
  /** Shows a refusal the applicant did not ask for (an autosave the server refused). */
  readonly report: (error: unknown) => void;
}

/** The server's answer to a save, as the autosaver understands it. */
function outcomeOf(error: unknown): SaveOutcome {
  if (error instanceof ServerError) {
    if (error.status === 409 && error.code === 'CONFLICT')
      return {
        kind: 'conflict',
        conflicts: (error.body?.conflicts ?? {}) as Conflicts,
        version: typeof error.body?.version === 'number' ? error.body.version : undefined,
        others: error.body?.others as Record<string, unknown> | undefined,
      };
    if (error.status === 0 || error.status === 429 || error.status >= 500)
      return { kind: 'transient', error };
  }
  return { kind: 'refused', error };
}

const conflictError = () => new ServerError(serverMessages.answerConflict, 409, 'CONFLICT');

export class AnswerSaving {
  private readonly autosaver: Autosaver;
  private readonly unlisten: (() => void)[];

  constructor(private readonly options: AnswerSavingOptions) {
    const { answers, store, queryClient } = options;
    this.autosaver = new Autosaver({
      takeDirty: () => answers.takeDirty(),
      markDirty: (keys) => answers.markDirty(keys),
      hasDirty: () => answers.hasDirty(),
      send: async (dirty, baseVersion) => {
        try {
          const result = await mutate(queryClient, saveAnswersMutation, {
            answers: dirty,
            baseVersion,
          });
          return { kind: 'saved', ...result };
        } catch (error) {
          return outcomeOf(error);
        }
      },
      baseVersion: options.baseVersion,
      onState: (saveState) => patch(store, { saveState }),
      onConflict: (found) => this.addConflicts(found),
      onOthers: (others) => this.takeOthers(others),
      // A 401 is handled centrally (back to /login); anything else is shown.
      onRefused: (error) => {
        if (!(error instanceof UnauthorizedError)) options.report(error);
      },
    });
    registerFlush(this.saveDirty);
    registerUnsaved(this.unsaved);
    this.unlisten = [
      options.page.onLeave(this.onPageHide),
      // A refusal of this save is reported through `onRefused`; the flush itself does not fail.
      options.page.onHidden(() => void this.autosaver.flush()),
    ];
  }

  /** An answer changed: saved once the applicant pauses. */
  changed(): void {
    this.autosaver.changed();
  }

  /** An explicit save (Save, a page change, submit, logout): throws what the applicant must see. */
  saveDirty = async (): Promise<string | null> => {
    const outcome = await this.autosaver.flush(true);
    if (outcome === null) {
      if (Object.keys(this.options.store.state.conflicts).length > 0) throw conflictError();
      return null;
    }
    switch (outcome.kind) {
      case 'saved':
        return outcome.message ?? serverMessages.saved;
      case 'conflict':
        throw conflictError();
      case 'transient':
      case 'refused':
        throw outcome.error;
    }
  };

  keepMine(key: string): void {
    this.resolve(key);
    this.options.answers.markDirty([key]);
    this.autosaver.changed();
  }

  keepTheirs(key: string): void {
    const theirs = this.options.store.state.conflicts[key]?.theirs;
    this.resolve(key);
    this.options.answers.adopt({ [key]: (theirs ?? '') as AnswerValue });
  }

  stop(): void {
    this.autosaver.stop();
    registerFlush(null);
    registerUnsaved(null);
    for (const remove of this.unlisten) remove();
  }

  private resolve(key: string): void {
    const { [key]: _resolved, ...rest } = this.options.store.state.conflicts;
    patch(this.options.store, { conflicts: rest });
  }

  private addConflicts(found: Conflicts): void {
    patch(this.options.store, { conflicts: { ...this.options.store.state.conflicts, ...found } });
  }

  /**
   * Changes from elsewhere: shown at once, unless this tab has its own unsaved change of the same
   * answer, which then becomes a choice like any conflict.
   */
  private takeOthers(others: Record<string, unknown>): void {
    const { answers } = this.options;
    const adopt: Record<string, AnswerValue> = {};
    const clashes: Conflicts = {};
    for (const [key, theirs] of Object.entries(others)) {
      const mine = answers.getAnswer(key) ?? '';
      if (answers.isDirty(key) && JSON.stringify(mine) !== JSON.stringify(theirs)) {
        clashes[key] = { mine, theirs };
        answers.adopt({ [key]: mine as AnswerValue }); // not sent until the choice
      } else adopt[key] = theirs as AnswerValue;
    }
    answers.adopt(adopt);
    if (Object.keys(clashes).length > 0) this.addConflicts(clashes);
  }

  /** REQ-R-4: on a 401, what is unsaved or in flight goes to /login with the applicant's name. */
  private unsaved = () => {
    const { answers, username } = this.options;
    const keys = new Set([...answers.dirtyKeys(), ...this.autosaver.pendingKeys()]);
    const all = answers.all();
    const unsaved = Object.fromEntries([...keys].map((key) => [key, all[key] ?? '']));
    return username === null ? null : { answers: unsaved, username };
  };

  /** Leaving the page: what is unsaved goes out in a request that outlives the page. */
  private onPageHide = () => {
    const { answers } = this.options;
    if (!answers.hasDirty()) return;
    void saveAnswersRequest({
      answers: answers.takeDirty(),
      baseVersion: this.autosaver.baseVersion,
      keepalive: true,
    }).catch(() => undefined);
  };
}
