/** SPEC 2.1: the route table. The root and unknown paths go to the default route, keeping the query string. */
import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
  useRouterState,
} from '@tanstack/react-router';
import { lazy } from 'react';
import { applicationDefinition } from './tenant/tenantData';
import { AppShell } from './AppShell';
import { ErrorScreen } from './chrome/ErrorScreen';
import { LoadingScreen } from './chrome/LoadingScreen';
import { ApplicationLayout } from './features/application/ApplicationLayout';
import { FormPage } from './features/application/FormPage';
import { useLookupSource } from './features/lookup/api/lookup';
import {
  beforeApplicationLoad,
  leaveApplication,
  type ApplicationHolder,
  type ApplicationRouterContext,
} from './features/application/session/routing';
import './session/navigationState';
import { returnSearch } from './session/returnTo';
import { isStaffPath, staffRoutes } from './features/staff/routes';

const defaultRoute = applicationDefinition.defaultRoute;

/** The staff console brings its own page (its header, no applicant chrome); everything else the shell. */
function RootLayout() {
  const staff = useRouterState({ select: (state) => isStaffPath(state.location.pathname) });
  return staff ? <Outlet /> : <AppShell />;
}

const rootRoute = createRootRouteWithContext<ApplicationRouterContext>()({
  component: RootLayout,
  errorComponent: ErrorScreen,
});

/** `/` and unknown addresses ask for no page: the application resumes where it was left (D113). */
const toDefault = ({ search }: { search: Record<string, unknown> }) => {
  throw redirect({ to: defaultRoute, search, replace: true, state: { resume: true } });
};

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: toDefault,
});
const unknownRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '$',
  beforeLoad: toDefault,
});

/** The upload chain, its caches and modals load on demand (D37). */
const DocumentsFeature = lazy(() => import('./features/documents/DocumentsFeature'));

const applicationRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'application',
  beforeLoad: beforeApplicationLoad,
  onLeave: ({ context }) => leaveApplication(context),
  component: function ApplicationRoute() {
    return (
      <ApplicationLayout
        session={applicationRoute.useRouteContext().session}
        lookup={useLookupSource()}
        DocumentsTab={DocumentsFeature}
      />
    );
  },
  // The loading screen shows at once while a logged-in applicant's form loads.
  pendingComponent: LoadingScreen,
  pendingMs: 0,
  pendingMinMs: 0,
  errorComponent: ErrorScreen,
});
const pageRoutes = applicationDefinition.pages.map((page) =>
  createRoute({
    getParentRoute: () => applicationRoute,
    path: page.path,
    component: () => <FormPage pageId={page.id} />,
  }),
);
// Screens the first page does not need load on demand.
const completionRoute = createRoute({
  getParentRoute: () => applicationRoute,
  path: '/completion',
  component: lazyRouteComponent(() => import('./CompletionScreen'), 'CompletionScreen'),
});

/** D159: sign-up, confirmation and login carry the form page the applicant was heading to. */
const validateReturn = (search: Record<string, unknown>) =>
  returnSearch(applicationDefinition.pages, search);

const accountRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/signup',
    validateSearch: validateReturn,
    component: lazyRouteComponent(() => import('./features/account/SignupCard'), 'SignupCard'),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/confirm',
    validateSearch: validateReturn,
    component: lazyRouteComponent(() => import('./features/account/ConfirmCard'), 'ConfirmCard'),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/login',
    validateSearch: validateReturn,
    component: lazyRouteComponent(() => import('./features/account/LoginCard'), 'LoginCard'),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/forgot',
    component: lazyRouteComponent(() => import('./features/account/ForgotCard'), 'ForgotCard'),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/reset',
    component: lazyRouteComponent(() => import('./features/account/ResetCard'), 'ResetCard'),
  }),
];

const routeTree = rootRoute.addChildren([
  indexRoute,
  applicationRoute.addChildren([...pageRoutes, completionRoute]),
  ...accountRoutes,
  staffRoutes(rootRoute),
  unknownRoute,
]);

export function createAppRouter(queryClient: QueryClient) {
  const application: ApplicationHolder = { session: null, notice: null };
  const router = createRouter({
    routeTree,
    defaultPreload: false,
    scrollRestoration: false,
    context: {
      queryClient,
      application,
      navigate: (options): Promise<void> => router.navigate(options),
    },
  });
  return router;
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
