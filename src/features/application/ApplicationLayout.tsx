/**
 * The application's layout route: loads the profile, merges answers carried from anonymous use,
 * holds the answers (TanStack Form) and the session rules of SPEC 2.2 and 4.1, and gives the pages
 * what they need through ApplicationContext.
 */
import { useForm } from '@tanstack/react-form';
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
  tabGroups,
  validateAnswers,
  type Definition,
  type ViewState,
  type WebStatus,
} from '../../../runtime';
import { applicationDefinition, notices } from '../../../definitions';
import {
  DocumentStore,
  ErrorStore,
  FormProvider,
  type FormActions,
} from '../../../renderers/react';
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
import { registerFlush } from '../../session/flush';
import type { StudentAnswers } from '../../session/navigationState';
import { clientSnapshot, type ClientSnapshot } from '../../session/snapshot';
import { useAddAnotherCounts, usePutAddAnother } from './api/addAnother';
import { usePutLastPage } from './api/lastPage';
import { PROFILE_KEY, useProfile } from './api/profile';
import { saveAnswersRequest } from './api/saveAnswers';
import { submitRequest } from './api/submit';
import { usePutTab, useTabs } from './api/tabs';
import { useTmpAnswers } from './api/tmpAnswers';
import { postValidationsRequest } from './api/validations';
import { usePostWebStatus } from './api/webStatus';
import { formAnswerSource, type FormAnswerSource } from './answerSource';
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
}

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
  const form = useForm({ defaultValues: initial });

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

  const errors = useMemo(() => new ErrorStore(), []);
  const fileKeys = useMemo(() => documentKeys(definition), [definition]);
  // Until the documents feature has loaded, a logged-in applicant's files count as loading.
  const documents = useMemo(
    () =>
      new DocumentStore(ALLOWED_FILE_EXTENSIONS.join(','), {
        phase: loggedIn ? 'loading' : 'empty',
        file: null,
        problem: null,
      }),
    [loggedIn],
  );
  const documentsApi = useRef<DocumentsApi | null>(null);
  const registerDocuments = useCallback((api: DocumentsApi | null) => {
    documentsApi.current = api;
  }, []);
  const validate = useCallback(
    () => validateAnswers(definition, form.state.values, { ...viewStateRef.current }).errors,
    [definition, form],
  );
  const answers = useMemo(
    () =>
      formAnswerSource(
        form,
        definition,
        () => viewStateRef.current,
        () => {
          // SPEC 2.3: while validating, errors show live as answers change.
          if (webStatusRef.current === 'validating') errors.set(validate());
          if (!loggedIn) keepAnonymousAnswers(answers.all());
        },
      ),
    [form, definition, errors, validate, loggedIn],
  );

  const snapshot = useMemo(
    () => clientSnapshot({ profile, loggedIn, hasChangedPage, webStatus }),
    [profile, loggedIn, hasChangedPage, webStatus],
  );

  const saveDirty = useCallback(async (): Promise<string | null> => {
    if (!loggedIn || !answers.hasDirty()) return null;
    const dirty = answers.takeDirty();
    try {
      const result = await saveAnswersRequest(dirty);
      return result.message;
    } catch (error) {
      answers.markDirty(Object.keys(dirty));
      throw error;
    }
  }, [answers, loggedIn]);

  // Unsaved answers are saved before any logout (REQ-R-5).
  useEffect(() => {
    registerFlush(saveDirty);
    return () => registerFlush(null);
  }, [saveDirty]);

  const report = useCallback(
    (error: unknown) => {
      if (error instanceof ServerError)
        toast.show({ title: notices.errorTitle, description: error.message, severity: 'error' });
      else throw error;
    },
    [toast],
  );

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
      void navigate({ to: last, replace: true });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

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

  const runValidation = useCallback(async () => {
    const found = validate();
    errors.set(found);
    if (webStatusRef.current === 'validating' && Object.keys(found).length > 0)
      await postValidationsRequest(found);
    return found;
  }, [errors, validate]);

  const toSignup = useCallback(() => {
    const all = answers.all();
    keepAnonymousAnswers(all);
    void navigate({ to: '/signup', state: { studentAnswers: all } });
  }, [answers, navigate]);

  const scrollTop = () => window.scrollTo({ top: 0 });

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
            await navigate({ to: definition.defaultRoute });
            return scrollTop();
          }
          throw error;
        }
        await postWebStatus.mutateAsync('submitted');
        setWebStatus('submitted');
        webStatusRef.current = 'submitted';
        await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
        await navigate({ to: '/completion', state: { successMessage: serverMessages.submitted } });
      } else {
        await navigate({ to: definition.defaultRoute });
      }
      scrollTop();
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
          const api = documentsApi.current;
          // Not loaded yet: the documents are still being fetched, so the switch waits.
          if (!api || !(await api.leaveTab(leaving))) return;
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
    () => ({ definition, snapshot, answers, errors, viewState, goTo, save, submit, busy }),
    [definition, snapshot, answers, errors, viewState, goTo, save, submit, busy],
  );

  const formContext = useMemo(
    () => ({
      renderers: interactiveRenderers,
      answers,
      errors,
      anonymous: !loggedIn,
      actions,
      documents,
    }),
    [answers, errors, loggedIn, actions, documents],
  );

  return (
    <ApplicationContext.Provider value={context}>
      <FormProvider value={formContext}>
        <Outlet />
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
