/**
 * SPEC 4.6: a switch away from a tab that holds document questions asks the documents feature first
 * (refused while a file is on its way; the tab's files are deleted otherwise). Then the chosen tab
 * is saved, the left tab's keys are cleared and the content changes.
 */
import type { QueryClient } from '@tanstack/react-query';
import { shownKeysOfKind, tabGroups, type Definition } from '#runtime';
import { DOC_CONVERSION_CACHE, DOCUMENT_ANSWER_CACHE } from '#contract';
import { notices } from '#contract/words.ts';
import { UnauthorizedError } from '#src/api/client.ts';
import type { DocumentsApi } from '#src/components/documentsTab.ts';
import type { ToastOptions } from '#src/chrome/toast.tsx';
import { mutate } from '../api/mutate';
import { putTabMutation } from '../api/tabs';
import type { FormAnswerSource } from '../answerSource';
import { patch, type ApplicationStore } from './state';

export class TabSwitcher {
  private switching = false;
  private documents: DocumentsApi | null = null;
  /** Switches that came before the documents feature's code (they wait for its answer). */
  private waiting: ((api: DocumentsApi) => void)[] = [];

  constructor(
    private readonly options: {
      readonly definition: Definition;
      readonly store: ApplicationStore;
      readonly answers: FormAnswerSource;
      readonly queryClient: QueryClient;
      readonly toast: (toast: ToastOptions) => void;
    },
  ) {}

  /** The documents feature hands over its API once loaded (null when it unmounts). */
  registerDocuments = (api: DocumentsApi | null): void => {
    this.documents = api;
    if (api) for (const resolve of this.waiting.splice(0)) resolve(api);
  };

  async switchTab(tabId: string, tab: string): Promise<void> {
    const { definition, store, answers, queryClient } = this.options;
    const group = tabGroups(definition).get(tabId);
    const viewState = store.state.viewState;
    const current = viewState.tabs[tabId] ?? group?.defaultTab;
    if (!group || current === tab || this.switching) return;
    const values = answers.all();
    const inTab = (name: string) => ({ ...viewState, tabs: { ...viewState.tabs, [tabId]: name } });
    const staying = new Set(shownKeysOfKind(definition, 'file', values, inTab(tab)));
    const leaving = shownKeysOfKind(
      definition,
      'file',
      values,
      inTab(current ?? group.defaultTab),
    ).filter((key) => !staying.has(key));
    this.switching = true;
    try {
      if (leaving.length > 0) {
        // Before the documents feature's code has arrived the documents are still to be fetched:
        // the switch waits for it, and it refuses with its modal while they load (SPEC 4.6).
        const api =
          this.documents ??
          (await new Promise<DocumentsApi>((resolve) => this.waiting.push(resolve)));
        if (!(await api.leaveTab(leaving))) return;
      }
      const next = {
        ...store.state.viewState,
        tabs: { ...store.state.viewState.tabs, [tabId]: tab },
      };
      patch(store, { viewState: next });
      answers.reclear(next);
      await mutate(queryClient, putTabMutation(queryClient), { tabId, chosenTab: tab });
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) this.failed(tabId);
    } finally {
      this.switching = false;
    }
  }

  /** SPEC 4.6: the tabs error; closing it refetches the document data. */
  private failed(tabId: string): void {
    const { definition, queryClient } = this.options;
    const defaultTab = tabGroups(definition).get(tabId)?.defaultTab ?? tabId;
    this.options.toast({
      title: notices.errorTitle,
      description: notices.tabsFailed(defaultTab),
      severity: 'error',
      onClose: () => {
        void queryClient.invalidateQueries({ queryKey: [DOCUMENT_ANSWER_CACHE] });
        void queryClient.invalidateQueries({ queryKey: [DOC_CONVERSION_CACHE] });
      },
    });
  }
}
