import type { RouteDescription } from '../routeDescription';

/** A staff console call (OpenAPI, D205): a staff session opens it unless it says otherwise. */
export const staffCall = (
  summary: string,
  rest: Omit<RouteDescription, 'tag' | 'summary'> = {},
): RouteDescription => ({ tag: 'staff', summary, security: 'staffSession', ...rest });
