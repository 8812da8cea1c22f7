/**
 * One applicant's time in the application, from entering its routes to leaving them (SPEC 2.2, 2.3,
 * 4.1), free of React: the answers, the store, saving, tab switches, and what the buttons and the
 * navigation do (validate, save, go; submit). The router creates it before the first page shows
 * (see ./routing.ts) and tells it about every page change; components read its store.
 */
import type { QueryClient } from '@tanstack/react-query';
import { isEmpty, sensitiveKeys, type Definition, type WebStatus } from '../../../../runtime';
import { documentText, notices } from '../../../../contract/words';
import { applicationDefinition } from '../../../tenant/tenantData';
import type { ErrorSource } from '../../../../renderers/react';
import type { AnswerValue } from '../../../../renderers/registry';
import {
  ALLOWED_FILE_EXTENSIONS,
  serverMessages,
  type ProfileResponse,
} from '../../../../contract';
import type { HistoryState } from '@tanstack/react-router';
import { ServerError } from '../../../api/client';
import type { ToastOptions } from '../../../chrome/toast';
import {
  anonymousAnswers,
  forgetAnonymousAnswers,
  hasAnyAnswer,
  keepAnonymousAnswers,
} from '../../../session/anonymousAnswers';
import type { StudentAnswers } from '../../../session/navigationState';
import type { ReturnSearch } from '../../../session/returnTo';
import { clientSnapshot } from '../../../session/snapshot';
import { putLastPageRequest } from '../api/lastPage';
import { mutate } from '../api/mutate';
import { PROFILE_KEY } from '../api/profile';
import { submitRequest } from '../api/submit';
import { postValidationsRequest } from '../api/validations';
import { postWebStatusMutation } from '../api/webStatus';
import { createAnswerStore, formAnswerSource, type FormAnswerSource } from '../answerSource';
import { errorsToShow } from '../shownErrors';
import { AnswerSaving } from './answerSaving';
import { addInstance } from './repeatRemoval';
import { clearSaveNoticeAwayFrom, noticeOnLeaving, showSaveNotice } from './saveNotice';
import { draftableKeys, keepDateDrafts, readDateDrafts } from './dateDrafts';
import { storeDocumentSource, type StoreDocumentSource } from './documentSource';
import { TabSwitcher } from './tabSwitch';
import {
  createApplicationStore,
  errorSource,
  patch,
  setErrors,
  type ApplicationStore,
  type Errors,
} from './state';

export interface SessionStart {
  readonly loggedIn: boolean;
  readonly profile: ProfileResponse | null;
  readonly savedCounts: Readonly<Record<string, number>>;
  readonly savedTabs: Readonly<Record<string, string>>;
  /** Answers brought along: a temporary-answers link, navigation state (SPEC 2.1, 2.2). */
  readonly carried: StudentAnswers;
}

export interface SessionPorts {
  readonly queryClient: QueryClient;
  navigate(options: {
    to: string;
    search?: ReturnSearch;
    replace?: boolean;
    state?: HistoryState;
  }): Promise<void>;
}

const scrollTop = () => window.scrollTo({ top: 0 });

export class ApplicationSession {
  readonly definition: Definition = applicationDefinition;
  readonly loggedIn: boolean;
  readonly profile: ProfileResponse | null;
  readonly store: ApplicationStore;
  readonly answers: FormAnswerSource;
  readonly errors: ErrorSource;
  readonly documents: StoreDocumentSource;
  readonly saving: AnswerSaving | null;
  readonly tabs: TabSwitcher;
  private readonly draftKeys = draftableKeys(this.definition);
  /** Toasts wait here until the layout shows them (a session starts before it renders). */
  private toasts: ToastOptions[] = [];
  private showToast: ((toast: ToastOptions) => void) | null = null;
  /** The page this session landed on (after the resume): leaving it is the first page change. */
  private landing: string | null = null;
  private lastRecorded: string | null;
  private pathname = '';
  /** The history entry whose success message was shown (undefined: none yet). */
  private messageEntry: string | null | undefined = undefined;

  constructor(
    start: SessionStart,
    private readonly ports: SessionPorts,
  ) {
    const { loggedIn, profile } = start;
    this.loggedIn = loggedIn;
    this.profile = profile;
    this.lastRecorded = profile?.last_page ?? null;
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
      this.definition,
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
          queryClient: ports.queryClient,
          baseVersion: profile?.version,
          username: profile?.username ?? null,
          report: (error) => this.report(error),
        })
      : null;
    this.tabs = new TabSwitcher({
      definition: this.definition,
      store: this.store,
      answers: this.answers,
      queryClient: ports.queryClient,
      toast: (toast) => this.toast(toast),
    });
    // SPEC 2.3, 4.1: while validating, the summary and the invalid questions show from the first
    // render, after a reload or a new login too, not only once something is edited.
    if (this.store.state.webStatus === 'validating') setErrors(this.store, this.validate());
    if (!loggedIn) return;
    this.keepDrafts(); // dates carried from before the login, typed but not yet valid
    // SPEC 4.1: a logged-in user without a status gets "started".
    if (this.store.state.webStatus === null) {
      patch(this.store, { webStatus: 'started' });
      void mutate(ports.queryClient, postWebStatusMutation, 'started').catch(() => undefined);
    }
    // Answers carried from anonymous use are saved once logged in (SPEC 1: nothing entered is lost).
    if (hasAnyAnswer(carried)) {
      this.answers.markDirty(Object.keys(carried));
      void this.saveDirty()
        .then(() => forgetAnonymousAnswers())
        .catch((error: unknown) => this.report(error));
    }
  }

  get webStatus(): WebStatus | null {
    return this.store.state.webStatus;
  }

  /** The layout shows the session's toasts; those raised before it rendered show now. */
  attach(show: (toast: ToastOptions) => void): () => void {
    this.showToast = show;
    for (const toast of this.toasts.splice(0)) show(toast);
    return () => {
      if (this.showToast === show) this.showToast = null;
    };
  }

  toast(toast: ToastOptions): void {
    if (this.showToast) this.showToast(toast);
    else this.toasts.push(toast);
  }

  /**
   * The router arrives on a path of the application (before the page shows). SPEC 2.3: the first
   * page change, whichever way, sets has_changed_page; SPEC 2.2: the page is recorded as the last
   * one while started or validating.
   */
  arrive(pathname: string, state: HistoryState): void {
    this.pathname = pathname;
    clearSaveNoticeAwayFrom(this.store, pathname);
    this.showSuccessMessage(state);
    const isPage = this.definition.pages.some((page) => page.path === pathname);
    if (this.landing === null) this.landing = pathname;
    else if (isPage && pathname !== this.landing && !this.store.state.hasChangedPage)
      patch(this.store, { hasChangedPage: true });
    const status = this.store.state.webStatus;
    if (!this.loggedIn || (status !== 'started' && status !== 'validating')) return;
    if (!isPage || this.lastRecorded === pathname) return;
    this.lastRecorded = pathname;
    void mutate(this.ports.queryClient, { mutationFn: putLastPageRequest }, pathname).catch(
      () => undefined,
    );
  }

  stop(): void {
    this.saving?.stop();
  }

  /** SPEC 2.2: the success message of navigation state, as a toast, once per history entry. */
  showSuccessMessage(state: HistoryState): void {
    const entry = (state as { __TSR_key?: string }).__TSR_key ?? null;
    if (!state.successMessage || entry === this.messageEntry) return;
    this.messageEntry = entry;
    this.toast({
      title: notices.successTitle,
      description: state.successMessage,
      severity: 'success',
      label: notices.successLabel,
    });
  }

  /** An explicit save; null when anonymous or nothing was unsaved. */
  saveDirty = async (): Promise<string | null> => (this.saving ? this.saving.saveDirty() : null);

  /** Save & Continue, Previous and the navigation: validate, save, go (SPEC 2.3). */
  goTo = async (path: string): Promise<void> => {
    if (!this.loggedIn) {
      if (hasAnyAnswer(this.answers.all())) return this.toSignup(path);
      await this.ports.navigate({ to: path });
      return scrollTop();
    }
    await this.whileBusy(async () => {
      const message = (await this.saveDirty()) ?? serverMessages.saved;
      await this.runValidation();
      const left = this.pageAt(this.pathname);
      patch(this.store, { hasChangedPage: true });
      await this.ports.navigate({ to: path });
      scrollTop();
      if (left) noticeOnLeaving(this.store, this.definition, { path, pageId: left.id, message });
    });
  };

  save = async (): Promise<void> => {
    if (!this.loggedIn) {
      if (hasAnyAnswer(this.answers.all())) return this.toSignup(this.pathname);
      return scrollTop();
    }
    await this.whileBusy(async () => {
      const message = (await this.saveDirty()) ?? serverMessages.saved;
      await this.runValidation();
      scrollTop();
      const page = this.pageAt(this.pathname);
      if (page) showSaveNotice(this.store, { path: page.path, pageId: page.id, message });
    });
  };

  submit = async (): Promise<void> => {
    if (!this.loggedIn) return this.toSignup(this.pathname);
    const { queryClient, navigate } = this.ports;
    const home = this.definition.defaultRoute;
    await this.whileBusy(async () => {
      await this.saveDirty();
      if (this.webStatus === 'started') {
        patch(this.store, { webStatus: 'validating' });
        await mutate(queryClient, postWebStatusMutation, 'validating');
      }
      const found = await this.runValidation();
      if (Object.keys(found).length > 0) {
        // The page then moves focus to the summary, which brings it into view.
        this.focusSummaryOn(home);
        return navigate({ to: home });
      }
      try {
        await submitRequest();
      } catch (error) {
        if (error instanceof ServerError && error.status === 422 && error.fieldErrors) {
          setErrors(this.store, error.fieldErrors);
          this.focusSummaryOn(home);
          return navigate({ to: home });
        }
        throw error;
      }
      await mutate(queryClient, postWebStatusMutation, 'submitted');
      patch(this.store, { webStatus: 'submitted' });
      await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
      await navigate({ to: '/completion', state: { successMessage: serverMessages.submitted } });
      scrollTop();
    });
  };

  /** SPEC 4.8: one more instance, saved; taken back if the save fails. */
  addAnother = (buttonId: string): void =>
    addInstance(
      { store: this.store, queryClient: this.ports.queryClient, toast: (t) => this.toast(t) },
      buttonId,
    );

  reveal = (triggerId: string): void => {
    const viewState = this.store.state.viewState;
    patch(this.store, {
      viewState: { ...viewState, triggers: { ...viewState.triggers, [triggerId]: true } },
    });
  };

  /** SPEC 5.7: text areas save on blur. D149: an answer left with a format mistake shows it. */
  blurred = (key: string, kind: string | undefined): void => {
    if (this.loggedIn && kind === 'textarea') void this.saveDirty().catch((e) => this.report(e));
    if (isEmpty(this.answers.getAnswer(key))) return;
    const { webStatus, errors } = this.store.state;
    setErrors(
      this.store,
      errorsToShow(this.definition, this.validate(), { webStatus, shown: errors, left: key }),
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
  toSignup = (next: string): void => {
    const all = this.answers.all();
    keepAnonymousAnswers(all, sensitiveKeys(this.definition));
    void this.ports.navigate({ to: '/signup', search: { next }, state: { studentAnswers: all } });
  };

  /** The errors of the one evaluation the views read too (D85): nothing is walked twice. */
  private validate(): Errors {
    return this.answers.evaluation().errors;
  }

  /** SPEC 2.3: while validating, errors show live; before, an error shown goes once fixed (D77). */
  private answersChanged(): void {
    const { webStatus, errors } = this.store.state;
    if (webStatus === 'validating' || Object.keys(errors).length > 0)
      setErrors(
        this.store,
        errorsToShow(this.definition, this.validate(), { webStatus, shown: errors }),
      );
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

  /** Validates; shows what D77 allows (the page being left or saved); posts while validating. */
  private async runValidation(): Promise<Errors> {
    const found = this.validate();
    const { webStatus, errors } = this.store.state;
    const pageId = this.pageAt(this.pathname)?.id;
    setErrors(
      this.store,
      errorsToShow(this.definition, found, { webStatus, shown: errors, pageId }),
    );
    if (webStatus === 'validating' && Object.keys(found).length > 0)
      await postValidationsRequest(found);
    return found;
  }

  private pageAt(path: string) {
    return this.definition.pages.find((page) => page.path === path);
  }

  private focusSummaryOn(path: string): void {
    const { tick } = this.store.state.summaryFocus;
    patch(this.store, { summaryFocus: { path, tick: tick + 1 } });
  }

  private async whileBusy(work: () => Promise<unknown>): Promise<void> {
    patch(this.store, { busy: true });
    try {
      await work();
    } catch (error) {
      this.report(error);
    } finally {
      patch(this.store, { busy: false });
    }
  }

  /** A server's refusal is shown; anything else is a fault for the error boundary. */
  private report(error: unknown): void {
    if (error instanceof ServerError)
      this.toast({ title: notices.errorTitle, description: error.message, severity: 'error' });
    else throw error;
  }
}
