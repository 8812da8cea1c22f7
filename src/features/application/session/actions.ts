/**
 * What the buttons and the navigation of a logged-in applicant do (SPEC 2.3): Save & Continue,
 * Previous and the navigation validate, save and go; Save validates and saves. Every server call
 * goes through `mutate` (a 401 reaches the central handler); a failure becomes the store's fault.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { HistoryState } from '@tanstack/react-router';
import type { Definition } from '#runtime';
import { serverMessages } from '#contract';
import type { ReturnSearch } from '#src/session/returnTo.ts';
import { mutate } from '../api/mutate';
import { postValidationsRequest } from '../api/validations';
import type { FormAnswerSource } from '../answerSource';
import { errorsToShow } from '../shownErrors';
import { reportFailure } from './faults';
import type { PagePort } from './page';
import { noticeOnLeaving, showSaveNotice } from './saveNotice';
import { patch, setErrors, type ApplicationStore, type Errors } from './state';

export type Navigate = (options: {
  to: string;
  search?: ReturnSearch;
  replace?: boolean;
  state?: HistoryState;
}) => Promise<void>;

/** What the actions work with: the session's parts, the router and the page. */
export interface ActionContext {
  readonly definition: Definition;
  readonly store: ApplicationStore;
  readonly answers: FormAnswerSource;
  readonly queryClient: QueryClient;
  readonly navigate: Navigate;
  readonly page: PagePort;
  /** The path shown now. */
  pathname(): string;
  /** Saves what is unsaved; the message to show, null when nothing was. */
  saveDirty(): Promise<string | null>;
}

export function pageAt(definition: Definition, path: string) {
  return definition.pages.find((page) => page.path === path);
}

/** The buttons wait while `work` runs; its failure is shown, never thrown. */
export async function whileBusy(
  store: ApplicationStore,
  work: () => Promise<unknown>,
): Promise<void> {
  patch(store, { busy: true });
  try {
    await work();
  } catch (error) {
    reportFailure(store, error);
  } finally {
    patch(store, { busy: false });
  }
}

/** Validates; shows what D77 allows (the page being left or saved); posts while validating. */
export async function runValidation(context: ActionContext): Promise<Errors> {
  const { definition, store, answers, queryClient } = context;
  const found = answers.evaluation().errors;
  const { webStatus, errors } = store.state;
  const pageId = pageAt(definition, context.pathname())?.id;
  setErrors(store, errorsToShow(definition, found, { webStatus, shown: errors, pageId }));
  if (webStatus === 'validating' && Object.keys(found).length > 0)
    await mutate(queryClient, { mutationFn: postValidationsRequest }, found);
  return found;
}

/** Save & Continue, Previous and the navigation: validate, save, go. */
export function goTo(context: ActionContext, path: string): Promise<void> {
  const { definition, store } = context;
  return whileBusy(store, async () => {
    const message = (await context.saveDirty()) ?? serverMessages.saved;
    await runValidation(context);
    const left = pageAt(definition, context.pathname());
    patch(store, { hasChangedPage: true });
    await context.navigate({ to: path });
    context.page.scrollTop();
    if (left) noticeOnLeaving(store, definition, { path, pageId: left.id, message });
  });
}

/** Save: validate and save, then the page says so (D158). */
export function save(context: ActionContext): Promise<void> {
  return whileBusy(context.store, async () => {
    const message = (await context.saveDirty()) ?? serverMessages.saved;
    await runValidation(context);
    context.page.scrollTop();
    const page = pageAt(context.definition, context.pathname());
    if (page) showSaveNotice(context.store, { path: page.path, pageId: page.id, message });
  });
}
