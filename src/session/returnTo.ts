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
