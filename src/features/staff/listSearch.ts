/**
 * The list's URL: search, filters, sort and the page's cursor as search params, checked with the
 * contract's schema (the server's) in this lazy chunk. A hand-edited or stale URL that does not pass
 * shows the list unfiltered with the contract's message, never a broken page.
 */
import { applicationQuery, staffMessages, type ApplicationQuery } from '../../../contract/staff';
import type { StaffListSearch } from './routes';

export const DEFAULT_LIST: ApplicationQuery = { sort: 'updated', dir: 'desc' };

export function listQueryOf(search: StaffListSearch): {
  query: ApplicationQuery;
  problem?: string;
} {
  const parsed = applicationQuery.safeParse(search);
  if (parsed.success) return { query: { ...DEFAULT_LIST, ...parsed.data } };
  return { query: DEFAULT_LIST, problem: staffMessages.badFilter };
}

/** The query as search params (the URL's and the API's), without empty values. */
export function searchOf(query: ApplicationQuery): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query).flatMap(([key, value]) =>
      value === undefined || value === '' ? [] : [[key, String(value)]],
    ),
  );
}

export const queryString = (query: ApplicationQuery) =>
  new URLSearchParams(searchOf(query)).toString();

/** The filters alone (what an export takes): no page position. */
export function filterOf(query: ApplicationQuery): ApplicationQuery {
  const { after: _after, before: _before, last: _last, ...filter } = query;
  return filter;
}
