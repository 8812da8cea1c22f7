/**
 * The console lists' URLs: search, filters, sort and the page's cursor as search params, checked
 * with the contract's schema (the server's) in this lazy chunk. A hand-edited or stale URL that does
 * not pass shows the list unfiltered with the contract's message, never a broken page.
 */
import {
  applicationQuery,
  auditQuery,
  linkQuery,
  staffMessages,
  type ApplicationQuery,
  type AuditQuery,
  type PagePosition,
} from '#contract/staff.ts';
import type { StaffListSearch } from './routes';

export const DEFAULT_LIST: ApplicationQuery = { sort: 'updated', dir: 'desc' };

interface QuerySchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

function parsedSearch<T extends object>(
  schema: QuerySchema<T>,
  search: StaffListSearch,
  defaults: T,
): { query: T; problem?: string } {
  const parsed = schema.safeParse(search);
  if (parsed.success) return { query: { ...defaults, ...parsed.data } };
  return { query: defaults, problem: staffMessages.badFilter };
}

export const listQueryOf = (search: StaffListSearch) =>
  parsedSearch(applicationQuery, search, DEFAULT_LIST);

export const linkQueryOf = (search: StaffListSearch) =>
  parsedSearch<PagePosition>(linkQuery, search, {});

export const auditQueryOf = (search: StaffListSearch) =>
  parsedSearch<AuditQuery>(auditQuery, search, {});

type Query = Partial<Record<string, string | number>>;

/** The query as search params (the URL's and the API's), without empty values. */
export function searchOf(query: Query): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query).flatMap(([key, value]) =>
      value === undefined || value === '' ? [] : [[key, String(value)]],
    ),
  );
}

export const queryString = (query: Query) => new URLSearchParams(searchOf(query)).toString();

/** The filters alone (what an export takes): no page position. */
export function filterOf<Q extends PagePosition>(query: Q): Omit<Q, 'after' | 'before' | 'last'> {
  const { after: _after, before: _before, last: _last, ...filter } = query;
  return filter;
}
