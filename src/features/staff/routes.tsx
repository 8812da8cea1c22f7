/**
 * The staff console's routes (D107, docs/staff.md): a URL per view, so reload and back/forward
 * keep it. Every view loads on demand; this table is all of the console the applicant's first page
 * carries. The lists' search params are checked with the contract's zod schemas inside the lazy
 * chunk (`listSearch.ts`, D107); here they are only kept as text.
 */
import { createRoute, lazyRouteComponent, type AnyRoute } from '@tanstack/react-router';

/** A list's search params as the URL holds them (text; `listSearch.ts` validates them). */
export type StaffListSearch = Partial<Record<string, string>>;

const asText = (search: Record<string, unknown>): StaffListSearch =>
  Object.fromEntries(
    Object.entries(search).flatMap(([key, value]) =>
      typeof value === 'string' || typeof value === 'number' ? [[key, String(value)]] : [],
    ),
  );

export function staffRoutes<TRoot extends AnyRoute>(rootRoute: TRoot) {
  const console = createRoute({
    getParentRoute: () => rootRoute,
    path: '/staff',
    component: lazyRouteComponent(() => import('./StaffLayout'), 'StaffLayout'),
  });
  return console.addChildren([
    createRoute({
      getParentRoute: () => console,
      path: '/',
      validateSearch: asText,
      component: lazyRouteComponent(() => import('./ApplicationsPage'), 'ApplicationsPage'),
    }),
    createRoute({
      getParentRoute: () => console,
      path: '/applications/$id',
      component: lazyRouteComponent(() => import('./ApplicationPage'), 'ApplicationPage'),
    }),
    createRoute({
      getParentRoute: () => console,
      path: '/staff',
      component: lazyRouteComponent(() => import('./StaffPage'), 'StaffPage'),
    }),
    createRoute({
      getParentRoute: () => console,
      path: '/links',
      validateSearch: asText,
      component: lazyRouteComponent(() => import('./LinksPage'), 'LinksPage'),
    }),
    createRoute({
      getParentRoute: () => console,
      path: '/audit',
      validateSearch: asText,
      component: lazyRouteComponent(() => import('./AuditPage'), 'AuditPage'),
    }),
    createRoute({
      getParentRoute: () => console,
      path: '/deletions',
      component: lazyRouteComponent(() => import('./DeletionsPage'), 'DeletionsPage'),
    }),
    createRoute({
      getParentRoute: () => console,
      path: '/versions',
      component: lazyRouteComponent(() => import('./VersionsPage'), 'VersionsPage'),
    }),
    // The sign-in: StaffLayout's gate draws it, and goes on to `next` once it is complete.
    createRoute({
      getParentRoute: () => console,
      path: '/login',
      validateSearch: asText,
    }),
    createRoute({
      getParentRoute: () => console,
      path: '/join',
      validateSearch: asText,
      component: lazyRouteComponent(() => import('./JoinPage'), 'JoinPage'),
    }),
    createRoute({
      getParentRoute: () => console,
      path: '/forgot',
      component: lazyRouteComponent(() => import('./ForgotPage'), 'ForgotPage'),
    }),
    createRoute({
      getParentRoute: () => console,
      path: '/reset',
      validateSearch: asText,
      component: lazyRouteComponent(() => import('./ResetPage'), 'ResetPage'),
    }),
  ]);
}

/** The pages a password link or "Forgot password?" opens: no sign-in in front of them. */
export const STAFF_OPEN_PATHS: readonly string[] = ['/staff/join', '/staff/forgot', '/staff/reset'];

/** The console's own pages: `/staff` and below. */
export const isStaffPath = (pathname: string) => /^\/staff(\/|$)/.test(pathname);
