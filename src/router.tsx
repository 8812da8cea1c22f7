/** SPEC 2.1: the route table. The root and unknown paths go to the default route, keeping the query string. */
import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
} from '@tanstack/react-router';
import { applicationDefinition } from '../definitions';
import { AppShell } from './AppShell';
import { ErrorScreen } from './chrome/ErrorScreen';
import { ApplicationLayout } from './features/application/ApplicationLayout';
import { FormPage } from './features/application/FormPage';
import './session/navigationState';
import { staffRoutes } from './features/staff/routes';

const defaultRoute = applicationDefinition.defaultRoute;

const rootRoute = createRootRoute({ component: AppShell, errorComponent: ErrorScreen });

const toDefault = ({ search }: { search: Record<string, unknown> }) => {
  throw redirect({ to: defaultRoute, search, replace: true });
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

const applicationRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'application',
  component: ApplicationLayout,
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
  component: lazyRouteComponent(
    () => import('./features/application/CompletionPage'),
    'CompletionPage',
  ),
});

const accountRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/signup',
    component: lazyRouteComponent(() => import('./features/account/SignupCard'), 'SignupCard'),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/confirm',
    component: lazyRouteComponent(() => import('./features/account/ConfirmCard'), 'ConfirmCard'),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/login',
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
  ...staffRoutes(rootRoute),
  unknownRoute,
]);

export function createAppRouter() {
  return createRouter({ routeTree, defaultPreload: false, scrollRestoration: false });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
