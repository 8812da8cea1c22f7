/**
 * D159: the form page an anonymous applicant was heading to when the form sent them to sign up
 * travels as `?next=` through sign-up, confirmation (a reload keeps it) and login, which then lands
 * there. Only the exact path of one of the form's pages is taken, so the parameter can never send
 * anyone off the application (no other origin, no `//host`, no `javascript:`).
 */
export const NEXT_PARAM = 'next';

/** The search of an account screen: `next` when it names a form page, else nothing. */
export interface ReturnSearch {
  readonly next?: string;
}

export function returnSearch(
  pages: readonly { readonly path: string }[],
  search: Record<string, unknown>,
): ReturnSearch {
  const next = search[NEXT_PARAM];
  return typeof next === 'string' && pages.some((page) => page.path === next) ? { next } : {};
}

/**
 * The search of a link to sign up or log in from where the applicant is (D165): the form page they
 * are on, else (on an account screen) the page already being carried, else nothing. The default
 * route is not carried: it is where an arrival that asked for no page lands, and a login from it
 * resumes on the last page instead (SPEC 2.2, D113), as "pick up where you left off" promises.
 */
export function returnHere(
  definition: {
    readonly defaultRoute: string;
    readonly pages: readonly { readonly path: string }[];
  },
  location: { readonly pathname: string; readonly search: object },
): ReturnSearch {
  if (location.pathname === definition.defaultRoute) return {};
  const here = returnSearch(definition.pages, { [NEXT_PARAM]: location.pathname });
  return here.next ? here : returnSearch(definition.pages, { ...location.search });
}
