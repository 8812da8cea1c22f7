/**
 * Pages found by seeking (D107), for every list of the console (applications, service links): a
 * row's place is its sort value and its id, handed to the client as an opaque cursor; a page is read
 * from the start, after or before a place, or backwards from the end, and says how many rows come
 * before it, so the pager can show "Page 3 of 2,001" without reading the rows in between.
 */
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { staffMessages, type PagePosition } from '../../contract/staff';
import type { Database } from '../db/client';
import { HttpError } from '../errors';

/** A row's place in the order: its sort value and id, and its rank in a ranked list (D146). */
export type Position =
  readonly [string | number, string] | readonly [string | number, string, number];

export function cursorOf(position: Position): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** A cursor back into a position `valid` accepts; anything else is the lists' 400. */
export function positionFrom(
  cursor: string,
  valid: (key: unknown, id: unknown, rank: unknown) => boolean,
): Position {
  const refused = () => new HttpError(400, staffMessages.badFilter);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refused();
  }
  if (!Array.isArray(value) || (value.length !== 2 && value.length !== 3)) throw refused();
  const [key, id, rank] = value as unknown[];
  if (!valid(key, id, rank)) throw refused();
  return value.length === 2
    ? [key as string | number, id as string]
    : [key as string | number, id as string, rank as number];
}

/** A time as a cursor holds it: to the microsecond, in UTC (a Date would lose the microseconds). */
export const cursorTime = (column: SQLWrapper) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export const TIME_KEY = /^(-infinity|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z)$/;

/** How many rows of `table` meet `where`: a list's total, or the rows before a place in it. */
export async function countRows(
  db: Database,
  table: PgTable,
  where: SQL | undefined,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(where);
  return Number(row?.n ?? 0);
}

/** Where a list's rows come from, for one request. */
export interface SeekSource<Row> {
  /** How many rows the list's filter admits. */
  count(): Promise<number>;
  /** The page's rows in the order they are read: backwards for `before` and `last`. */
  read(limit: number): Promise<Row[]>;
  /** How many rows come before this one. */
  countBefore(row: Row): Promise<number>;
  positionOf(row: Row): Position;
}

export interface SeekPage<Row> {
  rows: Row[];
  total: number;
  /** Rows before this page's first. */
  offset: number;
  size: number;
  /** The cursors of the page's first and last rows. */
  first: string | null;
  last: string | null;
}

/**
 * The condition that seeks to the page asked for: after a row's cursor, before one, or none for the
 * first and last pages. `seek` turns a cursor and its direction into the list's own condition.
 */
export function seekCondition<Condition>(
  page: PagePosition,
  seek: (cursor: string, direction: 'after' | 'before') => Condition,
): Condition | undefined {
  if (page.after) return seek(page.after, 'after');
  if (page.before) return seek(page.before, 'before');
  return undefined;
}

/** Pages read backwards (the last page, the page before a row) come turned round. */
export const readsBackwards = (page: PagePosition) =>
  page.last !== undefined || page.before !== undefined;

export async function seekPage<Row>(
  page: PagePosition,
  size: number,
  source: SeekSource<Row>,
): Promise<SeekPage<Row>> {
  const total = await source.count();
  // The last page holds what is left after whole pages, so pages keep their places from the first.
  const limit = page.last !== undefined ? total % size || size : size;
  const read = await source.read(limit);
  const rows = readsBackwards(page) ? read.reverse() : read;
  const firstRow = rows[0];
  const lastRow = rows.at(-1);
  let offset = 0;
  if (page.last !== undefined) offset = Math.max(0, total - rows.length);
  else if (firstRow && (page.after || page.before)) offset = await source.countBefore(firstRow);
  return {
    rows,
    total,
    offset,
    size,
    first: firstRow ? cursorOf(source.positionOf(firstRow)) : null,
    last: lastRow ? cursorOf(source.positionOf(lastRow)) : null,
  };
}
