/**
 * The router's arrivals on the application's paths, before each page shows: the first page change,
 * whichever way, sets has_changed_page (SPEC 2.3); the page is recorded as the last one while
 * started or validating (SPEC 2.2); a history entry's success message shows once, as a toast.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { Definition } from '#runtime';
import { notices } from '#contract/words.ts';
import type { ToastOptions } from '#src/chrome/toastModel.ts';
import { putLastPageRequest } from '../api/lastPage';
import { mutate } from '../api/mutate';
import { clearSaveNoticeAwayFrom } from './saveNotice';
import { patch, type ApplicationStore } from './state';

/** The history entry arrived at: its identity and the navigation state's success message. */
export interface Entry {
  readonly key: string | null;
  readonly successMessage?: string;
}

export interface ArrivalOptions {
  readonly definition: Definition;
  readonly store: ApplicationStore;
  readonly queryClient: QueryClient;
  readonly loggedIn: boolean;
  /** The last page the server has recorded. */
  readonly lastPage: string | null;
  readonly toast: (toast: ToastOptions) => void;
}

export class PageArrivals {
  /** The path shown now. */
  pathname = '';
  /** The page this session landed on (after the resume): leaving it is the first page change. */
  private landing: string | null = null;
  private lastRecorded: string | null;
  /** The history entry whose success message was shown (undefined: none yet). */
  private messageEntry: string | null | undefined = undefined;

  constructor(private readonly options: ArrivalOptions) {
    this.lastRecorded = options.lastPage;
  }

  arrive(pathname: string, entry: Entry): void {
    const { definition, store, loggedIn, queryClient } = this.options;
    this.pathname = pathname;
    clearSaveNoticeAwayFrom(store, pathname);
    this.showSuccessMessage(entry);
    const isPage = definition.pages.some((page) => page.path === pathname);
    if (this.landing === null) this.landing = pathname;
    else if (isPage && pathname !== this.landing && !store.state.hasChangedPage)
      patch(store, { hasChangedPage: true });
    const status = store.state.webStatus;
    if (!loggedIn || (status !== 'started' && status !== 'validating')) return;
    if (!isPage || this.lastRecorded === pathname) return;
    this.lastRecorded = pathname;
    // Bookkeeping the applicant never waits for: a failure costs only the resume's target.
    mutate(queryClient, { mutationFn: putLastPageRequest }, pathname).catch(() => undefined);
  }

  /** SPEC 2.2: the success message of navigation state, as a toast, once per history entry. */
  showSuccessMessage(entry: Entry): void {
    if (!entry.successMessage || entry.key === this.messageEntry) return;
    this.messageEntry = entry.key;
    this.options.toast({
      title: notices.successTitle,
      description: entry.successMessage,
      severity: 'success',
      label: notices.successLabel,
    });
  }
}
