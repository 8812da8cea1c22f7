/**
 * The applications list of the console (D105): search by the start of any word of the names or
 * the address, or by reference, ranked (D146), filter by status and submitted date, sort, and pages
 * found by seeking (D107). It reads one table,
 * `staff_listing`, which the database keeps in step with applications, accounts, web statuses and
 * documents by triggers (migration 0009_staff_listing, D108), so every sort and filter has its
 * index: a page is an index range, not a scan of 50,000 rows. A search word is a range of the
 * index of the rows' words, `staff_listing_words` (migration 0011, D126), on PostgreSQL and PGlite.
 */
import { sql, type SQL } from 'drizzle-orm';
import { type ApplicationQuery, type ApplicationRow } from '../../contract/staff';
import type { WebStatus } from '../../contract/webStatus';
import type { Database } from '../db/client';
import {
  cursorTime,
  positionFrom,
  readsBackwards,
  seekCondition,
  seekPage,
  TIME_KEY,
  type Position,
  type SeekPage,
} from './seekPaging';
import { localMidnight } from './localTimes';
import { applicationReference } from '../applicationPdf';
import { foundBy, rankOf, searchOf, SEARCH_RANKS, type ListSearch } from './listSearch';

export const DEFAULT_PAGE_SIZE = 25;

type Sort = NonNullable<ApplicationQuery['sort']>;

/** Each sort's column of `staff_listing` (indexed with the tenant and the id), and its value's kind. */
const SORT_KEYS: Record<Sort, { column: SQL; kind: 'text' | 'time' | 'number' }> = {
  name: { column: sql.raw('l.sort_name'), kind: 'text' },
  email: { column: sql.raw('l.email'), kind: 'text' },
  status: { column: sql.raw('l.status'), kind: 'text' },
  // Not yet submitted counts as the earliest: last when newest first.
  submitted: { column: sql.raw('l.submitted_sort'), kind: 'time' },
  updated: { column: sql.raw('l.updated_at'), kind: 'time' },
  documents: { column: sql.raw('l.documents'), kind: 'number' },
};

/** The WHERE of a query: the tenant, what the search finds, the status and the date range. */
export function filterOf(
  tenantId: string,
  query: ApplicationQuery,
  search: ListSearch | null,
  timeZone: string,
): SQL {
  const parts: SQL[] = [sql`l.tenant_id = ${tenantId}`];
  if (search) parts.push(sql`l.user_id in (${foundBy(tenantId, search)})`);
  if (query.status) parts.push(sql`l.status = ${query.status}`);
  // The institution's days, both ends included; a date range keeps only submitted applications.
  if (query.from) parts.push(sql`l.submitted_sort >= ${localMidnight(query.from, timeZone)}`);
  if (query.to)
    parts.push(sql`l.submitted_sort < ${localMidnight(query.to, timeZone)} + interval '1 day'`);
  if (query.from || query.to) parts.push(sql`l.submitted_at is not null`);
  return sql.join(parts, sql` and `);
}

/** The rows the list reads: with a search, each with its rank (`l.rank`, D146). */
export const sourceOf = (tenantId: string, search: ListSearch | null): SQL =>
  search?.ranked
    ? sql`(select l.*, ${rankOf(tenantId, search)} as rank from staff_listing l) l`
    : sql`staff_listing l`;

/** The list's order; a search's best rank first, whatever the sort (D146). */
export function orderOf(query: ApplicationQuery, reversed = false, ranked = false): SQL {
  const descending = (query.dir !== 'asc') !== reversed;
  const direction = sql.raw(descending ? 'desc' : 'asc');
  const order = sql`${SORT_KEYS[query.sort ?? 'updated'].column} ${direction}, l.user_id ${direction}`;
  return ranked ? sql`l.rank ${sql.raw(reversed ? 'desc' : 'asc')}, ${order}` : order;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A cursor back into a position of this sort (and rank); anything else is the list's 400. */
export function positionOf(cursor: string, sort: Sort, ranked = false): Position {
  const kind = SORT_KEYS[sort].kind;
  const ranks: unknown[] = Object.values(SEARCH_RANKS);
  return positionFrom(cursor, (key, id, rank) => {
    if (typeof id !== 'string' || !UUID.test(id)) return false;
    if (ranked !== ranks.includes(rank)) return false;
    if (kind === 'number') return typeof key === 'number' && Number.isSafeInteger(key);
    if (kind === 'time') return typeof key === 'string' && TIME_KEY.test(key);
    return typeof key === 'string' && key.length <= 400;
  });
}

/** Rows strictly after (`>` in the list's order) or before a position. */
export function seek(query: ApplicationQuery, position: Position, side: 'after' | 'before'): SQL {
  const sort = SORT_KEYS[query.sort ?? 'updated'];
  const value =
    sort.kind === 'time'
      ? sql`${position[0]}::timestamptz`
      : sort.kind === 'number'
        ? sql`${position[0]}::int`
        : sql`${position[0]}::text`;
  const descending = query.dir !== 'asc';
  const operator = sql.raw((side === 'after') === descending ? '<' : '>');
  const within = sql`(${sort.column}, l.user_id) ${operator} (${value}, ${position[1]}::uuid)`;
  if (position[2] === undefined) return within;
  // Ranks come first and always best first: a later rank, or the same rank and later within it.
  const rank = sql`${position[2]}::int`;
  return sql`(l.rank ${sql.raw(side === 'after' ? '>' : '<')} ${rank} or (l.rank = ${rank} and ${within}))`;
}

interface Row extends Record<string, unknown> {
  id: string;
  name: string;
  email: string;
  status: WebStatus;
  submitted_at: string | Date | null;
  updated_at: string | Date;
  documents: number;
  sort_key: string | number;
  rank?: number;
}

const iso = (value: string | Date) => new Date(value).toISOString();

export const positionOfRow = (row: Pick<Row, 'sort_key' | 'id' | 'rank'>): Position =>
  row.rank === undefined || row.rank === null
    ? [row.sort_key, row.id]
    : [row.sort_key, row.id, Number(row.rank)];

/** The sort value as the cursor holds it: times to the microsecond, in UTC. */
export function sortKeyOf(query: ApplicationQuery): SQL {
  const sort = SORT_KEYS[query.sort ?? 'updated'];
  if (sort.kind !== 'time') return sort.column;
  return sql`case when ${sort.column} = '-infinity' then '-infinity'
    else ${cursorTime(sort.column)} end`;
}

export const LISTING_COLUMNS = sql`l.user_id as id, l.name, l.email, l.status, l.submitted_at,
  l.updated_at, l.documents`;

async function rowsOf(db: Database, statement: SQL): Promise<Row[]> {
  return ((await db.execute(statement)) as unknown as { rows: Row[] }).rows;
}

/** How many rows a WHERE of the list admits (the total, or how many come before a page). */
export const countStatement = (where: SQL, source: SQL = sql`staff_listing l`) =>
  sql`select count(*)::int as n from ${source} where ${where}`;

/** One page's rows: from the start, after or before a row, or the last `limit` rows. */
export function pageStatement(
  tenantId: string,
  query: ApplicationQuery,
  limit: number,
  search: ListSearch | null,
  timeZone: string,
) {
  // The last page and the page before a row are read backwards, then turned round.
  const backwards = readsBackwards(query);
  const sort = query.sort ?? 'updated';
  const ranked = search?.ranked ?? false;
  const seekTo = seekCondition(query, (cursor, direction) =>
    seek(query, positionOf(cursor, sort, ranked), direction),
  );
  const statement = sql`select ${LISTING_COLUMNS}, ${sortKeyOf(query)} as sort_key${ranked ? sql`, l.rank` : sql``}
    from ${sourceOf(tenantId, search)} where ${filterOf(tenantId, query, search, timeZone)}${seekTo ? sql` and ${seekTo}` : sql``}
    order by ${orderOf(query, backwards, ranked)} limit ${limit}`;
  return { statement };
}

async function countOf(db: Database, where: SQL, source?: SQL): Promise<number> {
  const [row] = (await rowsOf(db, countStatement(where, source))) as unknown as {
    n: number;
  }[];
  return Number(row?.n ?? 0);
}

export async function listApplications(
  db: Database,
  tenantId: string,
  query: ApplicationQuery,
  timeZone: string,
): Promise<SeekPage<ApplicationRow>> {
  const search = await searchOf(db, query.q);
  const where = filterOf(tenantId, query, search, timeZone);
  const page = await seekPage<Row>(query, query.size ?? DEFAULT_PAGE_SIZE, {
    count: () => countOf(db, where),
    read: (limit) => rowsOf(db, pageStatement(tenantId, query, limit, search, timeZone).statement),
    countBefore: (row) =>
      countOf(
        db,
        sql`${where} and ${seek(query, positionOfRow(row), 'before')}`,
        sourceOf(tenantId, search),
      ),
    positionOf: positionOfRow,
  });
  return {
    ...page,
    rows: page.rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      status: row.status,
      submitted_at: row.submitted_at === null ? null : iso(row.submitted_at),
      updated_at: iso(row.updated_at),
      documents: Number(row.documents),
      reference: applicationReference(row.id),
    })),
  };
}
