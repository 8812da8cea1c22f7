/**
 * The staff console's routes (issue 18, docs/staff.md): `/staff` and everything under it, one lazy
 * route, so nothing of the console is in the applicant's first page.
 */
import { createRoute, lazyRouteComponent, type AnyRoute } from '@tanstack/react-router';

export function staffRoutes(rootRoute: AnyRoute) {
  const component = lazyRouteComponent(() => import('./StaffConsole'), 'StaffConsole');
  return [
    createRoute({ getParentRoute: () => rootRoute, path: '/staff', component }),
    createRoute({ getParentRoute: () => rootRoute, path: '/staff/$', component }),
  ];
}
