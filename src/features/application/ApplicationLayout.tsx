/**
 * The application's layout route: loads the profile, merges answers carried from anonymous use,
 * holds the answers (TanStack Form) and the session rules of SPEC 2.2 and 4.1, and gives the pages
 * what they need through ApplicationContext.
 */
import {
  Outlet,
  useLocation,
  useNavigate,
  useRouterState,
  useSearch,
} from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import {
  compile,
  sensitiveKeys,
  tabGroups,
  validateAnswers,
  type Definition,
  type ViewState,
  type WebStatus,
} from '../../../runtime';
import { applicationDefinition, documentText, notices } from '../../../definitions';
import {
  DocumentStore,
  ErrorStore,
  FormProvider,
  type FormActions,
} from '../../../renderers/react';
import { useLookupSource } from '../lookup/api/lookup';
import { interactiveRenderers } from '../../../renderers/interactive';
import type { AnswerValue } from '../../../renderers/registry';
import {
  ALLOWED_FILE_EXTENSIONS,
  DOC_CONVERSION_CACHE,
  DOCUMENT_ANSWER_CACHE,
  serverMessages,
  type ProfileResponse,
} from '../../../contract';
import { ServerError, UnauthorizedError } from '../../api/client';
import { LoadingScreen } from '../../chrome/LoadingScreen';
import { useToast } from '../../chrome/toast';
import {
  anonymousAnswers,
  forgetAnonymousAnswers,
  hasAnyAnswer,
  keepAnonymousAnswers,
} from '../../session/anonymousAnswers';
import { hasIndicatorCookie } from '../../session/cookies';
import { registerFlush, registerUnsaved } from '../../session/flush';
import type { StudentAnswers } from '../../session/navigationState';
import { clientSnapshot, type ClientSnapshot } from '../../session/snapshot';
import { useAddAnotherCounts, usePutAddAnother } from './api/addAnother';
import { usePutLastPage } from './api/lastPage';
import { PROFILE_KEY, useProfile } from './api/profile';
import { saveAnswersRequest, useSaveAnswers } from './api/saveAnswers';
import { Autosaver, type Conflicts, type SaveOutcome } from './autosave';
import { createSaveStatusStore, type SaveStatusStore } from './saveStatus';
import { submitRequest } from './api/submit';
import { usePutTab, useTabs } from './api/tabs';
import { useTmpAnswers } from './api/tmpAnswers';
import { postValidationsRequest } from './api/validations';
import { usePostWebStatus } from './api/webStatus';
import { createAnswerStore, formAnswerSource, type FormAnswerSource } from './answerSource';
import { errorsToShow } from './shownErrors';
import type { DocumentsApi } from '../documents/DocumentsFeature';

/** The upload chain, its caches and modals load on demand (docs/decisions.md D37). */
const DocumentsFeature = lazy(() => import('../documents/DocumentsFeature'));

type Guard = ReturnType<typeof compile>['instances'][number]['guard'];

/** True when the guard and all its parents hold (the question is shown in that view state). */
function shownUnder(guard: Guard, answers: Record<string, AnswerValue>, state: ViewState): boolean {
  for (let g = guard; g !== null; g = g.parent) if (!g.holds(answers, state)) return false;
  return true;
}

/** Every document question's key (SPEC 4.4: their conversions are polled on load). */
function documentKeys(definition: Definition): string[] {
  return compile(definition)
    .instances.filter((instance) => instance.question.kind === 'file')
    .map((instance) => instance.key);
}

export interface ApplicationContextValue {
  readonly definition: Definition;
  readonly snapshot: ClientSnapshot;
  readonly answers: FormAnswerSource;
  readonly errors: ErrorStore;
  readonly viewState: ViewState;
  /** Save & Continue, Previous and the navigation: validate, save, go (SPEC 2.3). */
  readonly goTo: (path: string) => Promise<void>;
  readonly save: () => Promise<void>;
  readonly submit: () => Promise<void>;
  readonly busy: boolean;
  /** The autosave state (SECURITY.md REQ-R-1), for logged-in applicants. */
  readonly saveStatus?: SaveStatusStore;
  /**
   * Submit found errors: the page takes this once and moves focus to the summary (GOV.UK pattern);
   * `summaryFocusTick` changes with each request, for a submit that does not change the route.
   */
  readonly takeSummaryFocus: (path: string) => boolean;
  readonly summaryFocusTick: number;
}

const ConflictDialog = lazy(() => import('./ConflictDialog'));

const ApplicationContext = createContext<ApplicationContextValue | null>(null);

export function useApplication(): ApplicationContextValue {
  const value = useContext(ApplicationContext);
  if (!value) throw new Error('useApplication() was called outside the application layout route.');
  return value;
}

/** The route component: waits for the profile (logged in) before the form starts. */
export function ApplicationLayout() {
  const loggedIn = hasIndicatorCookie();
  const profile = useProfile(loggedIn);
  const counts = useAddAnotherCounts(loggedIn);
  const tabs = useTabs(loggedIn);
  const carried = useRouterState({ select: (s) => s.location.state.studentAnswers });
  // SPEC 2.1: ?token= loads an anonymous visitor's temporary answers.
  const search = useSearch({ strict: false }) as { token?: unknown };
  const token = !loggedIn && typeof search.token === 'string' ? search.token : undefined;
  const tmp = useTmpAnswers(token);
  const toast = useToast();
  const navigate = useNavigate();
  const [tmpAnswers, setTmpAnswers] = useState<StudentAnswers>({});
  useEffect(() => {
    if (!token || tmp.isPending) return;
    if (tmp.isError) {
      toast.show({ title: notices.errorTitle, description: tmp.error.message, severity: 'error' });
    } else {
      setTmpAnswers(tmp.data.answers as StudentAnswers);
    }
    // The token leaves the address bar once used (it must not linger in history or referrers).
    void navigate({ to: '.', search: {}, replace: true, state: (s) => s });
  }, [token, tmp.isPending, tmp.isError, tmp.error, tmp.data, toast, navigate]);
  if (loggedIn && (profile.isPending || counts.isPending || tabs.isPending))
    return <LoadingScreen />;
  if (token) return <LoadingScreen />;
  return (
    <ApplicationForm
      loggedIn={loggedIn}
      profile={loggedIn ? (profile.data ?? null) : null}
      savedCounts={counts.data ?? {}}
      savedTabs={tabs.data ?? {}}
      carried={{ ...tmpAnswers, ...(carried ?? {}) }}
    />
  );
}

function ApplicationForm(props: {
  loggedIn: boolean;
  profile: ProfileResponse | null;
  savedCounts: Record<string, number>;
  savedTabs: Record<string, string>;
  carried: StudentAnswers;
}) {
  const { loggedIn, profile } = props;
  const definition = applicationDefinition;
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const toast = useToast();
  const postWebStatus = usePostWebStatus();
  const putLastPage = usePutLastPage();
  const putAddAnother = usePutAddAnother();
  const putTab = usePutTab();
  const saveAnswers = useSaveAnswers();
  const saveStatus = useMemo(() => createSaveStatusStore(), []);
  const [conflicts, setConflicts] = useState<Conflicts>({});
  const conflictsRef = useRef(conflicts);
  conflictsRef.current = conflicts;
  const autosaverRef = useRef<Autosaver | null>(null);

  const initial = useMemo<Record<string, AnswerValue>>(
    () => ({
      ...((profile?.answer ?? {}) as Record<string, AnswerValue>),
      ...anonymousAnswers(),
      ...props.carried,
    }),
    // The form starts once, with what was known when this route mounted.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const store = useMemo(() => createAnswerStore(initial), [initial]);

  const [webStatus, setWebStatus] = useState<WebStatus | null>(
    () => clientSnapshot({ profile, loggedIn, hasChangedPage: false }).web_status,
  );
  const [hasChangedPage, setHasChangedPage] = useState(false);
  const [triggers, setTriggers] = useState<Record<string, boolean>>({});
  const [counts, setCounts] = useState<Record<string, number>>(props.savedCounts);
  const [chosenTabs, setChosenTabs] = useState<Record<string, string>>(props.savedTabs);
  const [busy, setBusy] = useState(false);
  const viewState = useMemo<ViewState>(
    () => ({ addAnother: counts, tabs: chosenTabs, triggers }),
    [counts, chosenTabs, triggers],
  );
  const viewStateRef = useRef(viewState);
  viewStateRef.current = viewState;
  const webStatusRef = useRef(webStatus);
  webStatusRef.current = webStatus;

  // SPEC 2.3, 4.1: while validating, the summary and the invalid questions show from the first
  // render, after a reload or a new login too, not only once something is edited.
  const errors = useMemo(() => {
    const shown = new ErrorStore();
    if (webStatusRef.current === 'validating')
      shown.set(validateAnswers(definition, store.state, { ...viewStateRef.current }).errors);
    return shown;
    // The store is made once; later runs set it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const fileKeys = useMemo(() => documentKeys(definition), [definition]);
  // Until the documents feature has loaded, a logged-in applicant's files count as loading.
  const documents = useMemo(
    () =>
      new DocumentStore(ALLOWED_FILE_EXTENSIONS.join(','), documentText, {
        phase: loggedIn ? 'loading' : 'empty',
        file: null,
        problem: null,
      }),
    [loggedIn],
  );
  const documentsApi = useRef<DocumentsApi | null>(null);
  /** Tab switches that came before the documents feature's code (they wait for its answer). */
  const waitingForDocuments = useRef<((api: DocumentsApi) => void)[]>([]);
  const registerDocuments = useCallback((api: DocumentsApi | null) => {
    documentsApi.current = api;
    if (api) for (const resolve of waitingForDocuments.current.splice(0)) resolve(api);
  }, []);
  const validate = useCallback(
    () => validateAnswers(definition, store.state, { ...viewStateRef.current }).errors,
    [definition, store],
  );
  const answers = useMemo(
    () =>
      formAnswerSource(
        store,
        definition,
        () => viewStateRef.current,
        () => {
          // SPEC 2.3: while validating, errors show live as answers change; before, an error shown
          // goes away once fixed, and none appears while typing (D77).
          if (webStatusRef.current === 'validating' || Object.keys(errors.all()).length > 0)
            errors.set(
              errorsToShow(definition, answers.evaluation().errors, {
                webStatus: webStatusRef.current,
                shown: errors.all(),
              }),
            );
          if (!loggedIn) keepAnonymousAnswers(answers.all(), sensitiveKeys(definition));
          else autosaverRef.current?.changed();
        },
      ),
    [store, definition, errors, loggedIn],
  );

  const snapshot = useMemo(
    () => clientSnapshot({ profile, loggedIn, hasChangedPage, webStatus }),
    [profile, loggedIn, hasChangedPage, webStatus],
  );

  const report = useCallback(
    (error: unknown) => {
      if (error instanceof ServerError)
        toast.show({ title: notices.errorTitle, description: error.message, severity: 'error' });
      else throw error;
    },
    [toast],
  );
  const reportRef = useRef(report);
  reportRef.current = report;

  // SECURITY.md REQ-R-1/2: saves 2 s after the last change, one at a time, retried while the
  // network fails, based on the version this tab last saw so a field changed elsewhere comes back
  // as a conflict to resolve instead of being overwritten.
  useEffect(() => {
    if (!loggedIn) return;
    const send = async (
      dirty: Record<string, AnswerValue>,
      baseVersion: number | undefined,
    ): Promise<SaveOutcome> => {
      try {
        const result = await saveAnswers.mutateAsync({ answers: dirty, baseVersion });
        return {
          kind: 'saved',
          version: result.version,
          message: result.message,
          others: result.others,
        };
      } catch (error) {
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
    };
    const autosaver = new Autosaver({
      takeDirty: () => answers.takeDirty(),
      markDirty: (keys) => answers.markDirty(keys),
      hasDirty: () => answers.hasDirty(),
      send,
      baseVersion: profile?.version,
      onState: (state) => saveStatus.set(state),
      onConflict: (found) => setConflicts((previous) => ({ ...previous, ...found })),
      onOthers: (others) => {
        // Changes from elsewhere: shown at once, unless this tab has its own unsaved change of the
        // same answer, which then becomes a choice like any conflict.
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
        if (Object.keys(clashes).length > 0)
          setConflicts((previous) => ({ ...previous, ...clashes }));
      },
      onRefused: (error) => {
        // A 401 is handled centrally (back to /login); anything else is shown.
        if (!(error instanceof UnauthorizedError)) reportRef.current(error);
      },
    });
    autosaverRef.current = autosaver;
    // REQ-R-4: on a 401, what is unsaved or in flight goes to /login with the applicant's name.
    registerUnsaved(() => {
      const keys = new Set([...answers.dirtyKeys(), ...autosaver.pendingKeys()]);
      const all = answers.all();
      const unsaved = Object.fromEntries([...keys].map((key) => [key, all[key] ?? '']));
      return profile ? { answers: unsaved, username: profile.username } : null;
    });
    // Leaving the page: what is unsaved goes out in a request that outlives the page.
    const onPageHide = () => {
      if (!answers.hasDirty()) return;
      void saveAnswersRequest({
        answers: answers.takeDirty(),
        baseVersion: autosaver.baseVersion,
        keepalive: true,
      }).catch(() => undefined);
    };
    const onHidden = () => {
      if (document.visibilityState === 'hidden') void autosaver.flush();
    };
    window.addEventListener('pagehide', onPageHide);
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      document.removeEventListener('visibilitychange', onHidden);
      autosaver.stop();
      autosaverRef.current = null;
      registerUnsaved(null);
    };
    // The autosaver lives as long as this logged-in form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loggedIn, answers, saveStatus]);

  /** An explicit save (Save, a page change, submit, logout): throws what the applicant must see. */
  const saveDirty = useCallback(async (): Promise<string | null> => {
    const autosaver = autosaverRef.current;
    if (!loggedIn || !autosaver) return null;
    const outcome = await autosaver.flush(true);
    const conflictError = () => new ServerError(serverMessages.answerConflict, 409, 'CONFLICT');
    if (outcome === null) {
      if (Object.keys(conflictsRef.current).length > 0) throw conflictError();
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
  }, [loggedIn]);

  const keepMine = useCallback(
    (key: string) => {
      setConflicts(({ [key]: _resolved, ...rest }) => rest);
      answers.markDirty([key]);
      autosaverRef.current?.changed();
    },
    [answers],
  );
  const keepTheirs = useCallback(
    (key: string) => {
      const theirs = conflictsRef.current[key]?.theirs;
      setConflicts(({ [key]: _resolved, ...rest }) => rest);
      answers.adopt({ [key]: (theirs ?? '') as AnswerValue });
    },
    [answers],
  );

  // Unsaved answers are saved before any logout (REQ-R-5).
  useEffect(() => {
    registerFlush(saveDirty);
    return () => registerFlush(null);
  }, [saveDirty]);

  // Answers carried from anonymous use are saved once logged in (SPEC 1: nothing entered is lost).
  useEffect(() => {
    if (!loggedIn) return;
    const carried = { ...anonymousAnswers(), ...props.carried };
    if (!hasAnyAnswer(carried)) return;
    answers.markDirty(Object.keys(carried));
    void saveDirty()
      .then(() => forgetAnonymousAnswers())
      .catch(report);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // SPEC 4.1: a logged-in user without a status gets "started".
  useEffect(() => {
    if (loggedIn && webStatus === null) {
      setWebStatus('started');
      postWebStatus.mutate('started');
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loggedIn, webStatus]);

  // SPEC 2.2: the success message of navigation state, as a toast.
  const successMessage = useRouterState({ select: (s) => s.location.state.successMessage });
  const shownMessage = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (successMessage && shownMessage.current !== successMessage) {
      shownMessage.current = successMessage;
      toast.show({
        title: notices.successTitle,
        description: successMessage,
        severity: 'success',
        label: notices.successLabel,
      });
    }
  }, [successMessage, toast]);

  const pathname = location.pathname;
  const pathnameRef = useRef(pathname);
  pathnameRef.current = pathname;
  /** The page this session started on (after the resume): leaving it is the first page change. */
  const landing = useRef(pathname);
  // SPEC 2.2 resume: back to the last page, once, before any page change.
  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current) return;
    resumed.current = true;
    const last = profile?.last_page;
    if (
      loggedIn &&
      last &&
      last !== pathname &&
      !hasChangedPage &&
      definition.pages.some((p) => p.path === last)
    ) {
      landing.current = last;
      void navigate({ to: last, replace: true });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // SPEC 2.3: the first page change, whichever way (navigation, buttons, a summary link, the
  // browser's back button), sets has_changed_page and so hides the welcome banner.
  // (Until the resume has landed, the path is still the one it leaves: no change yet.)
  const landed = useRef(false);
  useEffect(() => {
    if (pathname === landing.current) landed.current = true;
    else if (landed.current && definition.pages.some((p) => p.path === pathname))
      setHasChangedPage(true);
  }, [pathname, definition]);

  // SPEC 2.2 last-page recording, while started or validating.
  const lastRecorded = useRef<string | null>(profile?.last_page ?? null);
  useEffect(() => {
    if (!loggedIn || (webStatus !== 'started' && webStatus !== 'validating')) return;
    if (!definition.pages.some((p) => p.path === pathname) || lastRecorded.current === pathname)
      return;
    lastRecorded.current = pathname;
    putLastPage.mutate(pathname);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname, webStatus, loggedIn]);

  // SPEC 2.2 completion guard.
  useEffect(() => {
    if (webStatus === 'submitted' && pathname !== '/completion')
      void navigate({ to: '/completion', replace: true });
    if (webStatus !== 'submitted' && pathname === '/completion')
      void navigate({ to: definition.defaultRoute, replace: true });
  }, [webStatus, pathname, navigate, definition.defaultRoute]);

  /** Validates; shows what D77 allows (`pageId`: the page being left or saved); posts while validating. */
  const runValidation = useCallback(async () => {
    const found = validate();
    const pageId = definition.pages.find((p) => p.path === pathnameRef.current)?.id;
    errors.set(
      errorsToShow(definition, found, {
        webStatus: webStatusRef.current,
        shown: errors.all(),
        pageId,
      }),
    );
    if (webStatusRef.current === 'validating' && Object.keys(found).length > 0)
      await postValidationsRequest(found);
    return found;
  }, [errors, validate, definition]);

  const toSignup = useCallback(() => {
    const all = answers.all();
    keepAnonymousAnswers(all, sensitiveKeys(definition));
    void navigate({ to: '/signup', state: { studentAnswers: all } });
  }, [answers, navigate, definition]);

  const scrollTop = () => window.scrollTo({ top: 0 });
  /** The page that is to focus the summary once it shows (the submit's destination). */
  const summaryFocus = useRef<string | null>(null);
  const [summaryFocusTick, setSummaryFocusTick] = useState(0);
  const takeSummaryFocus = useCallback((path: string) => {
    if (summaryFocus.current !== path) return false;
    summaryFocus.current = null;
    return true;
  }, []);
  const focusSummaryOn = useCallback((path: string) => {
    summaryFocus.current = path;
    setSummaryFocusTick((tick) => tick + 1);
  }, []);

  const goTo = useCallback(
    async (path: string) => {
      if (!loggedIn) {
        if (hasAnyAnswer(answers.all())) return toSignup();
        await navigate({ to: path });
        return scrollTop();
      }
      setBusy(true);
      try {
        await saveDirty();
        await runValidation();
        setHasChangedPage(true);
        await navigate({ to: path });
        scrollTop();
      } catch (error) {
        report(error);
      } finally {
        setBusy(false);
      }
    },
    [loggedIn, answers, toSignup, navigate, saveDirty, runValidation, report],
  );

  const save = useCallback(async () => {
    if (!loggedIn) {
      if (hasAnyAnswer(answers.all())) return toSignup();
      return scrollTop();
    }
    setBusy(true);
    try {
      const message = (await saveDirty()) ?? serverMessages.saved;
      await runValidation();
      toast.show({ title: notices.successTitle, description: message, severity: 'success' });
      scrollTop();
    } catch (error) {
      report(error);
    } finally {
      setBusy(false);
    }
  }, [loggedIn, answers, toSignup, saveDirty, runValidation, toast, report]);

  const submit = useCallback(async () => {
    if (!loggedIn) return toSignup();
    setBusy(true);
    try {
      await saveDirty();
      if (webStatusRef.current === 'started') {
        setWebStatus('validating');
        webStatusRef.current = 'validating';
        await postWebStatus.mutateAsync('validating');
      }
      const found = await runValidation();
      if (Object.keys(found).length === 0) {
        try {
          await submitRequest();
        } catch (error) {
          if (error instanceof ServerError && error.status === 422 && error.fieldErrors) {
            errors.set(error.fieldErrors);
            focusSummaryOn(definition.defaultRoute);
            return void (await navigate({ to: definition.defaultRoute }));
          }
          throw error;
        }
        await postWebStatus.mutateAsync('submitted');
        setWebStatus('submitted');
        webStatusRef.current = 'submitted';
        await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
        await navigate({ to: '/completion', state: { successMessage: serverMessages.submitted } });
        scrollTop();
      } else {
        // The page then moves focus to the summary, which brings it into view.
        focusSummaryOn(definition.defaultRoute);
        await navigate({ to: definition.defaultRoute });
      }
    } catch (error) {
      report(error);
    } finally {
      setBusy(false);
    }
  }, [
    loggedIn,
    toSignup,
    saveDirty,
    postWebStatus,
    runValidation,
    errors,
    navigate,
    definition.defaultRoute,
    queryClient,
    report,
    focusSummaryOn,
  ]);

  const showTabsError = useCallback(
    (tabId: string) => {
      const defaultTab = tabGroups(definition).get(tabId)?.defaultTab ?? tabId;
      toast.show({
        title: notices.errorTitle,
        description: notices.tabsFailed(defaultTab),
        severity: 'error',
        // SPEC 4.6: closing it refetches the document data.
        onClose: () => {
          void queryClient.invalidateQueries({ queryKey: [DOCUMENT_ANSWER_CACHE] });
          void queryClient.invalidateQueries({ queryKey: [DOC_CONVERSION_CACHE] });
        },
      });
    },
    [definition, toast, queryClient],
  );

  /**
   * SPEC 4.6: a switch away from a tab that holds document questions asks the documents feature
   * first (refused while a file is on its way; the tab's files are deleted otherwise). Then the
   * chosen tab is saved, the left tab's keys are cleared and the content changes.
   */
  const switching = useRef(false);
  const saveTab = putTab.mutateAsync;
  const switchTab = useCallback(
    async (tabId: string, tab: string) => {
      const group = tabGroups(definition).get(tabId);
      const current = viewStateRef.current.tabs?.[tabId] ?? group?.defaultTab;
      if (!group || current === tab || switching.current) return;
      const values = answers.all();
      const inTab = (name: string) => ({
        ...viewStateRef.current,
        tabs: { ...viewStateRef.current.tabs, [tabId]: name },
      });
      const leaving = compile(definition)
        .instances.filter(
          (instance) =>
            instance.question.kind === 'file' &&
            shownUnder(instance.guard, values, inTab(current ?? group.defaultTab)) &&
            !shownUnder(instance.guard, values, inTab(tab)),
        )
        .map((instance) => instance.key);
      switching.current = true;
      try {
        if (leaving.length > 0) {
          // Before the documents feature's code has arrived the documents are still to be fetched:
          // the switch waits for it, and it refuses with its modal while they load (SPEC 4.6).
          const api =
            documentsApi.current ??
            (await new Promise<DocumentsApi>((resolve) =>
              waitingForDocuments.current.push(resolve),
            ));
          if (!(await api.leaveTab(leaving))) return;
        }
        const next = { ...viewStateRef.current.tabs, [tabId]: tab };
        setChosenTabs(next);
        answers.reclear({ ...viewStateRef.current, tabs: next });
        await saveTab({ tabId, chosenTab: tab });
      } catch (error) {
        if (!(error instanceof UnauthorizedError)) showTabsError(tabId);
      } finally {
        switching.current = false;
      }
    },
    [definition, answers, saveTab, showTabsError],
  );

  const actions = useMemo<FormActions>(
    () => ({
      onAddAnother: loggedIn
        ? (buttonId) => {
            const count = (counts[buttonId] ?? 1) + 1;
            setCounts((previous) => ({ ...previous, [buttonId]: count }));
            putAddAnother.mutate(
              { buttonId, count },
              {
                onError: () => {
                  setCounts((previous) => ({ ...previous, [buttonId]: count - 1 }));
                  toast.show({
                    title: notices.errorTitle,
                    description: notices.addAnotherFailed(buttonId),
                    severity: 'error',
                  });
                },
              },
            );
          }
        : undefined,
      onTabChange: loggedIn ? (tabId, tab) => void switchTab(tabId, tab) : undefined,
      onReveal: (triggerId) => setTriggers((previous) => ({ ...previous, [triggerId]: true })),
      onBlur: (key) => {
        // SPEC 5.7: text areas save on blur.
        const kind = compile(definition).byKey.get(key)?.[0]?.question.kind;
        if (loggedIn && kind === 'textarea') void saveDirty().catch(report);
      },
    }),
    [loggedIn, counts, putAddAnother, switchTab, toast, definition, saveDirty, report],
  );

  const context = useMemo<ApplicationContextValue>(
    () => ({
      definition,
      snapshot,
      answers,
      errors,
      viewState,
      goTo,
      save,
      submit,
      busy,
      saveStatus: loggedIn ? saveStatus : undefined,
      takeSummaryFocus,
      summaryFocusTick,
    }),
    [
      definition,
      snapshot,
      answers,
      errors,
      viewState,
      goTo,
      save,
      submit,
      busy,
      loggedIn,
      saveStatus,
      takeSummaryFocus,
      summaryFocusTick,
    ],
  );

  const lookup = useLookupSource();
  const formContext = useMemo(
    () => ({
      renderers: interactiveRenderers,
      answers,
      errors,
      anonymous: !loggedIn,
      actions,
      lookup,
      documents,
    }),
    [answers, errors, loggedIn, actions, lookup, documents],
  );

  return (
    <ApplicationContext.Provider value={context}>
      <FormProvider value={formContext}>
        <Outlet />
        {Object.keys(conflicts).length > 0 ? (
          <Suspense fallback={null}>
            <ConflictDialog
              definition={definition}
              conflicts={conflicts}
              onKeepMine={keepMine}
              onKeepTheirs={keepTheirs}
            />
          </Suspense>
        ) : null}
      </FormProvider>
      {loggedIn && fileKeys.length > 0 ? (
        <Suspense fallback={null}>
          <DocumentsFeature
            store={documents}
            keys={fileKeys}
            answers={answers}
            saveAnswers={saveDirty}
            register={registerDocuments}
          />
        </Suspense>
      ) : null}
    </ApplicationContext.Provider>
  );
}

export function ApplicationProviderForTests({
  value,
  children,
}: {
  value: ApplicationContextValue;
  children: ReactNode;
}) {
  return <ApplicationContext.Provider value={value}>{children}</ApplicationContext.Provider>;
}
