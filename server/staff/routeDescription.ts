import type { RouteDescription } from '../routeDescription';

/** A staff console call (OpenAPI, D205): a staff session opens it unless it says otherwise. */
export const staffCall = (
  summary: string,
  rest: Omit<RouteDescription, 'tag' | 'summary'> = {},
): RouteDescription => ({ tag: 'staff', summary, security: 'staffSession', ...rest });

/** The per-address rate limit the staff routes' caller hands to the route files that need it. */
export interface RateLimited {
  readonly rateLimit: { max: number; timeWindow: string };
}
