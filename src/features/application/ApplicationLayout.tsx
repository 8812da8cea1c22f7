/**
 * The application's layout route: draws the pages inside what the session gives them (answers,
 * errors, actions) plus the conflict dialog and the documents feature. The session itself, and the
 * navigation rules of SPEC 2.2, live outside React (./session/).
 */
import { useQueryClient } from '@tanstack/react-query';
import { Outlet } from '@tanstack/react-router';
import {
  createContext,
  lazy,
  Suspense,
  useContext,
  useEffect,
  useMemo,
  useRef,
  type ComponentType,
} from 'react';
import { keysOfKind, savesOnBlur, type Definition } from '#runtime';
import { FormProvider, type FormActions, type LookupSource } from '#renderers/react/index.ts';
import { interactiveRenderers } from '#renderers/interactive/index.ts';
import { useToast, type ToastOptions } from '../../chrome/toast';
import { whenPageIdle } from '../../chrome/preloadWhenIdle';
import type { DocumentsTabProps } from '../../components/documentsTab';
import { clientSnapshot, type ClientSnapshot } from '../../session/snapshot';
import type { ApplicationSession } from './session/ApplicationSession';
import { documentsHost } from './session/documentSource';
import { faultToast } from './session/faults';
import { repeatActions } from './session/repeatRemoval';
import { useApplicationState, type ApplicationState } from './session/state';

const ConflictDialog = lazy(() => import('./ConflictDialog'));

/** Every document question's key (SPEC 4.4: their conversions are polled on load). */
function documentKeys(definition: Definition): string[] {
  return keysOfKind(definition, 'file');
}

const ApplicationContext = createContext<ApplicationSession | null>(null);

export function useApplication(): ApplicationSession {
  const value = useContext(ApplicationContext);
  if (!value) throw new Error('useApplication() was called outside the application layout route.');
  return value;
}

/** A slice of the session's store; the component re-renders only when it changes. */
export function useSessionState<T>(select: (state: ApplicationState) => T): T {
  return useApplicationState(useApplication().store, select);
}

/** SPEC 3.1: the client snapshot of this session. */
export function useSnapshot(): ClientSnapshot {
  const { profile, loggedIn } = useApplication();
  const webStatus = useSessionState((state) => state.webStatus);
  const hasChangedPage = useSessionState((state) => state.hasChangedPage);
  return useMemo(
    () => clientSnapshot({ profile, loggedIn, hasChangedPage, webStatus }),
    [profile, loggedIn, hasChangedPage, webStatus],
  );
}

/** SPEC 8: the session's fault, as a toast, once per fault. */
function useFaultToast(session: ApplicationSession, show: (toast: ToastOptions) => void): void {
  const fault = useApplicationState(session.store, (state) => state.fault);
  const shown = useRef(0);
  useEffect(() => {
    if (!fault || fault.tick <= shown.current) return;
    shown.current = fault.tick;
    show(faultToast(session.store, fault));
  }, [session, fault, show]);
}

/**
 * `lookup` is the lookup feature's source and `DocumentsTab` the documents feature (loaded on
 * demand): the router passes both in, so features do not import each other (D188).
 */
export function ApplicationLayout({
  session,
  lookup,
  DocumentsTab,
}: {
  session: ApplicationSession;
  lookup: LookupSource;
  DocumentsTab: ComponentType<DocumentsTabProps>;
}) {
  const { definition, loggedIn, answers, errors, documents } = session;
  const toast = useToast();
  const queryClient = useQueryClient();
  useEffect(() => session.attach(toast.show), [session, toast]);
  useFaultToast(session, toast.show);

  const actions = useMemo<FormActions>(
    () => ({
      onAddAnother: loggedIn ? session.addAnother : undefined,
      onTabChange: loggedIn ? (tabId, tab) => void session.tabs.switchTab(tabId, tab) : undefined,
      onReveal: session.reveal,
      onBlur: (key) => session.blurred(key, savesOnBlur(definition, key)),
      repeats: loggedIn
        ? repeatActions({
            definition,
            store: session.store,
            answers: session.answers,
            queryClient,
            saveDirty: session.saveDirty,
            toast: (options) => session.toast(options),
          })
        : undefined,
    }),
    [session, loggedIn, definition, queryClient],
  );
  const formContext = useMemo(
    () => ({
      renderers: interactiveRenderers,
      answers,
      errors,
      anonymous: !loggedIn,
      actions,
      lookup,
      documents,
      whenIdle: whenPageIdle,
    }),
    [answers, errors, loggedIn, actions, lookup, documents],
  );
  const conflicts = useApplicationState(session.store, (state) => state.conflicts);
  const fileKeys = useMemo(() => documentKeys(definition), [definition]);
  const host = useMemo(() => documentsHost(session.store, documents), [session.store, documents]);

  return (
    <ApplicationContext.Provider value={session}>
      <FormProvider value={formContext}>
        <Outlet />
        {Object.keys(conflicts).length > 0 && session.saving ? (
          <Suspense fallback={null}>
            <ConflictDialog
              definition={definition}
              conflicts={conflicts}
              onKeepMine={(key) => session.saving?.keepMine(key)}
              onKeepTheirs={(key) => session.saving?.keepTheirs(key)}
            />
          </Suspense>
        ) : null}
      </FormProvider>
      {loggedIn && fileKeys.length > 0 ? (
        <Suspense fallback={null}>
          <DocumentsTab
            host={host}
            keys={fileKeys}
            answers={answers}
            saveAnswers={session.saveDirty}
            register={session.tabs.registerDocuments}
          />
        </Suspense>
      ) : null}
    </ApplicationContext.Provider>
  );
}
