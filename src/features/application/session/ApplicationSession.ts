/**
 * One applicant's time in the application, from entering its routes to leaving them (SPEC 2.2, 2.3,
 * 4.1), free of React and of the DOM: the composition of the parts that each do one job (answers
 * and their store, saving, tab switches, arrivals, toasts, the actions of the buttons). The router
 * creates it before the first page shows (see ./routing.ts) and tells it about every page change;
 * components read its store. Its parts and its failures: D171.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { WebStatus } from '#contract';
import { isEmpty, sensitiveKeys, type Definition } from '#runtime';
import { documentText } from '#contract/words.ts';
import type { ErrorSource } from '#renderers/react/index.ts';
import type { AnswerValue } from '#renderers/registry.ts';
import { ALLOWED_FILE_EXTENSIONS, type ProfileResponse } from '#contract';
import type { ToastOptions } from '#src/chrome/toastModel.ts';
import {
  anonymousAnswers,
  forgetAnonymousAnswers,
  hasAnyAnswer,
  keepAnonymousAnswers,
} from '#src/session/anonymousAnswers.ts';
import { draftableKeys, keepDateDrafts, readDateDrafts } from '#src/session/dateDrafts.ts';
import type { StudentAnswers } from '#src/session/navigationState.ts';
import { clientSnapshot } from '#src/session/snapshot.ts';
import { mutate } from '../api/mutate';
import { postWebStatusMutation } from '../api/webStatus';
import { createAnswerStore, formAnswerSource, type FormAnswerSource } from '../answerSource';
import { errorsToShow } from '../shownErrors';
import { goTo, save, type ActionContext, type Navigate } from './actions';
import { AnswerSaving } from './answerSaving';
import { PageArrivals, type Entry } from './arrival';
import { storeDocumentSource, type StoreDocumentSource } from './documentSource';
import { reportFailure } from './faults';
import type { PagePort } from './page';
import { addInstance } from './repeatRemoval';
import { revealTrigger } from './reveal';
import {
  createApplicationStore,
  errorSource,
  patch,
  setErrors,
  type ApplicationStore,
} from './state';
import { submitApplication } from './submission';
import { TabSwitcher } from './tabSwitch';
import { ToastBuffer } from './toasts';

export interface SessionStart {
  readonly definition: Definition;
  readonly loggedIn: boolean;
  readonly profile: ProfileResponse | null;
  readonly savedCounts: Readonly<Record<string, number>>;
  readonly savedTabs: Readonly<Record<string, string>>;
  /** Answers brought along: a temporary-answers link, navigation state (SPEC 2.1, 2.2). */
  readonly carried: StudentAnswers;
}

export interface SessionPorts {
  readonly queryClient: QueryClient;
  readonly navigate: Navigate;
  readonly page: PagePort;
}

export class ApplicationSession {
  readonly definition: Definition;
  readonly loggedIn: boolean;
  readonly profile: ProfileResponse | null;
  readonly store: ApplicationStore;
  readonly answers: FormAnswerSource;
  readonly errors: ErrorSource;
  readonly documents: StoreDocumentSource;
  readonly saving: AnswerSaving | null;
  readonly tabs: TabSwitcher;
  private readonly toasts = new ToastBuffer();
  private readonly arrivals: PageArrivals;
  private readonly actions: ActionContext;
  private readonly draftKeys: ReadonlySet<string>;

  constructor(
    start: SessionStart,
    private readonly ports: SessionPorts,
  ) {
    const { definition, loggedIn, profile } = start;
    const { queryClient } = ports;
    this.definition = definition;
    this.draftKeys = draftableKeys(definition);
    this.loggedIn = loggedIn;
    this.profile = profile;
    this.store = createApplicationStore({
      webStatus: clientSnapshot({ profile, loggedIn, hasChangedPage: false }).web_status,
      viewState: {
        addAnother: { ...start.savedCounts },
        tabs: { ...start.savedTabs },
        triggers: {},
      },
    });
    this.errors = errorSource(this.store);
    const carried = { ...anonymousAnswers(), ...start.carried };
    const saved = (profile?.answer ?? {}) as Record<string, AnswerValue>;
    const answerStore = createAnswerStore({ ...saved, ...this.restoredDrafts(saved), ...carried });
    this.answers = formAnswerSource(
      answerStore,
      definition,
      () => this.store.state.viewState,
      () => this.answersChanged(),
    );
    // Until the documents feature has loaded, a logged-in applicant's files count as loading.
    this.documents = storeDocumentSource(this.store, {
      accept: ALLOWED_FILE_EXTENSIONS.join(','),
      text: documentText,
      fallback: { phase: loggedIn ? 'loading' : 'empty', file: null, problem: null },
    });
    this.saving = loggedIn
      ? new AnswerSaving({
          answers: this.answers,
          store: this.store,
          queryClient,
          baseVersion: profile?.version,
          username: profile?.username ?? null,
          page: ports.page,
          report: (error) => reportFailure(this.store, error),
        })
      : null;
    this.tabs = new TabSwitcher({
      definition,
      store: this.store,
      answers: this.answers,
      queryClient,
      toast: this.toast,
    });
    this.arrivals = new PageArrivals({
      definition,
      store: this.store,
      queryClient,
      loggedIn,
      lastPage: profile?.last_page ?? null,
      toast: this.toast,
    });
    this.actions = {
      definition,
      store: this.store,
      answers: this.answers,
      queryClient,
      navigate: ports.navigate,
      page: ports.page,
      pathname: () => this.arrivals.pathname,
      saveDirty: this.saveDirty,
    };
    // SPEC 2.3, 4.1: while validating, the summary and the invalid questions show from the first
    // render, after a reload or a new login too, not only once something is edited.
    if (this.store.state.webStatus === 'validating')
      setErrors(this.store, this.answers.evaluation().errors);
    if (!loggedIn) return;
    this.keepDrafts(); // dates carried from before the login, typed but not yet valid
    // SPEC 4.1: a logged-in user without a status gets "started".
    if (this.store.state.webStatus === null) {
      patch(this.store, { webStatus: 'started' });
      mutate(queryClient, postWebStatusMutation, 'started').catch(() => undefined);
    }
    // Answers carried from anonymous use are saved once logged in (SPEC 1: nothing entered is lost).
    if (hasAnyAnswer(carried)) {
      this.answers.markDirty(Object.keys(carried));
      this.saveDirty()
        .then(() => forgetAnonymousAnswers())
        .catch((error: unknown) => reportFailure(this.store, error));
    }
  }

  get webStatus(): WebStatus | null {
    return this.store.state.webStatus;
  }

  /** The layout shows the session's toasts; those raised before it rendered show now. */
  attach(show: (toast: ToastOptions) => void): () => void {
    return this.toasts.attach(show);
  }

  toast = (toast: ToastOptions): void => this.toasts.show(toast);

  /** The router arrives on a path of the application (before the page shows). */
  arrive(pathname: string, entry: Entry): void {
    this.arrivals.arrive(pathname, entry);
  }

  /** SPEC 2.2: the success message of navigation state, as a toast, once per history entry. */
  showSuccessMessage(entry: Entry): void {
    this.arrivals.showSuccessMessage(entry);
  }

  stop(): void {
    this.saving?.stop();
  }

  /** An explicit save; null when anonymous or nothing was unsaved. */
  saveDirty = async (): Promise<string | null> => (this.saving ? this.saving.saveDirty() : null);

  /** Save & Continue, Previous and the navigation: validate, save, go (SPEC 2.3). */
  goTo = (path: string): Promise<void> => {
    if (this.loggedIn) return goTo(this.actions, path);
    return this.anonymously(async () => {
      if (hasAnyAnswer(this.answers.all())) return this.toSignup(path);
      await this.ports.navigate({ to: path });
      this.ports.page.scrollTop();
    });
  };

  save = (): Promise<void> => {
    if (this.loggedIn) return save(this.actions);
    return this.anonymously(async () => {
      if (hasAnyAnswer(this.answers.all())) return this.toSignup(this.arrivals.pathname);
      this.ports.page.scrollTop();
    });
  };

  submit = (): Promise<void> =>
    this.loggedIn
      ? submitApplication(this.actions)
      : this.anonymously(() => this.toSignup(this.arrivals.pathname));

  /** SPEC 4.8: one more instance, saved; taken back if the save fails. */
  addAnother = (buttonId: string): void =>
    addInstance(
      { store: this.store, queryClient: this.ports.queryClient, toast: this.toast },
      buttonId,
    );

  reveal = (triggerId: string): void => revealTrigger(this.store, triggerId);

  /** SPEC 5.7: text areas save on blur. D149: an answer left with a format mistake shows it. */
  blurred = (key: string, saves: boolean): void => {
    if (this.loggedIn && saves)
      this.saveDirty().catch((error: unknown) => reportFailure(this.store, error));
    if (isEmpty(this.answers.getAnswer(key))) return;
    const { webStatus, errors } = this.store.state;
    const found = this.answers.evaluation().errors;
    setErrors(
      this.store,
      errorsToShow(this.definition, found, { webStatus, shown: errors, left: key }),
    );
  };

  /** The summary at `path` takes focus once (a submit with errors); false for other pages. */
  takeSummaryFocus = (path: string): boolean => {
    const focus = this.store.state.summaryFocus;
    if (focus.path !== path) return false;
    patch(this.store, { summaryFocus: { ...focus, path: null } });
    return true;
  };

  /** To sign-up with the answers so far and the page they were heading to (SPEC 2.2, D159). */
  toSignup = async (next: string): Promise<void> => {
    const all = this.answers.all();
    keepAnonymousAnswers(all, sensitiveKeys(this.definition));
    await this.ports.navigate({ to: '/signup', search: { next }, state: { studentAnswers: all } });
  };

  /** An anonymous action: like the logged-in ones, it shows its failure and never rejects. */
  private anonymously(work: () => Promise<void>): Promise<void> {
    return work().catch((error: unknown) => reportFailure(this.store, error));
  }

  /** SPEC 2.3: while validating, errors show live; before, an error shown goes once fixed (D77). */
  private answersChanged(): void {
    const { webStatus, errors } = this.store.state;
    if (webStatus === 'validating' || Object.keys(errors).length > 0) {
      const found = this.answers.evaluation().errors;
      setErrors(this.store, errorsToShow(this.definition, found, { webStatus, shown: errors }));
    }
    if (!this.loggedIn) keepAnonymousAnswers(this.answers.all(), sensitiveKeys(this.definition));
    else {
      this.saving?.changed();
      this.keepDrafts();
    }
  }

  private keepDrafts(): void {
    if (this.profile) keepDateDrafts(this.profile.username, this.answers.all(), this.draftKeys);
  }

  /** D121: a reload brings back the dates typed but not yet valid, unless one was saved since. */
  private restoredDrafts(saved: Record<string, AnswerValue>): Record<string, AnswerValue> {
    if (!this.loggedIn || !this.profile) return {};
    const drafts = readDateDrafts(this.profile.username, this.draftKeys);
    return Object.fromEntries(Object.entries(drafts).filter(([key]) => isEmpty(saved[key])));
  }
}
