/**
 * The applications list of the console (issue 18): search by name or address prefix, filter by
 * status and submitted date, sort, and pages counted on the server. Each part is indexed
 * (migration 0008_staff): the address and the first and last names by prefix (`text_pattern_ops`),
 * the sorts by last change and submission; the status reads the web-status index per row.
 * `tests/server/staffList.test.ts` measures it on 50,000 applications (D105).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { ApplicationQuery, ApplicationRow, ApplicationStatus } from '../../contract/staff';
import type { Database } from '../db/client';

export const DEFAULT_PAGE_SIZE = 25;

/** LIKE's own characters, taken literally. */
const likePrefix = (word: string) => `${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The applicants one word matches: address, first or last name starting with it (indexed arms). */
function matchingWord(tenantId: string, word: string): SQL {
  const prefix = likePrefix(word.toLowerCase());
  return sql`(select u.id from users u where u.tenant_id = ${tenantId} and u.email like ${prefix}
    union select s.user_id from applications s where s.tenant_id = ${tenantId}
      and lower(s.answers->>'first_name') like ${prefix}
    union select s.user_id from applications s where s.tenant_id = ${tenantId}
      and lower(s.answers->>'last_name') like ${prefix})`;
}

export const STATUS = sql`case when a.submitted_at is not null then 'submitted'
  when exists (select 1 from web_status_events w where w.tenant_id = a.tenant_id
    and w.user_id = a.user_id and w.web_status = 'validating') then 'validating'
  else 'started' end`;
export const NAME = sql`concat_ws(' ', nullif(a.answers->>'first_name', ''), nullif(a.answers->>'middle_name', ''), nullif(a.answers->>'last_name', ''))`;
const DOCUMENTS = sql`(select count(*)::int from documents d where d.tenant_id = a.tenant_id
  and d.user_id = a.user_id and d.answered)`;

const SORTS: Record<NonNullable<ApplicationQuery['sort']>, SQL> = {
  name: sql`lower(a.answers->>'last_name'), lower(a.answers->>'first_name')`,
  email: sql`u.email`,
  status: STATUS,
  submitted: sql`a.submitted_at`,
  updated: sql`a.updated_at`,
  documents: DOCUMENTS,
};

/** The WHERE of a query: the tenant, the words of the search, the status and the date range. */
export function filterOf(tenantId: string, query: ApplicationQuery): SQL {
  const parts: SQL[] = [sql`a.tenant_id = ${tenantId}`];
  const words = (query.q ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 5);
  for (const word of words) parts.push(sql`a.user_id in ${matchingWord(tenantId, word)}`);
  if (query.status === 'submitted') parts.push(sql`a.submitted_at is not null`);
  else if (query.status) parts.push(sql`a.submitted_at is null and ${STATUS} = ${query.status}`);
  // Days in UTC, both ends included; a date range keeps only submitted applications.
  if (query.from) parts.push(sql`a.submitted_at >= ${`${query.from}T00:00:00Z`}::timestamptz`);
  if (query.to)
    parts.push(sql`a.submitted_at < (${`${query.to}T00:00:00Z`}::timestamptz + interval '1 day')`);
  return sql.join(parts, sql` and `);
}

export function orderOf(query: ApplicationQuery): SQL {
  const direction = query.dir === 'asc' ? sql`asc` : sql`desc`;
  const expression = SORTS[query.sort ?? 'updated'];
  return sql`${expression} ${direction} nulls last, a.user_id`;
}

interface Row extends Record<string, unknown> {
  id: string;
  name: string;
  email: string;
  status: ApplicationStatus;
  submitted_at: string | Date | null;
  updated_at: string | Date;
  documents: number;
}

const iso = (value: string | Date) => new Date(value).toISOString();

export async function listApplications(
  db: Database,
  tenantId: string,
  query: ApplicationQuery,
): Promise<{ rows: ApplicationRow[]; total: number; page: number; size: number }> {
  const size = query.size ?? DEFAULT_PAGE_SIZE;
  const page = query.page ?? 1;
  const where = filterOf(tenantId, query);
  const result = (await db.execute(sql`select a.user_id as id, ${NAME} as name, u.email,
      ${STATUS} as status, a.submitted_at, a.updated_at, ${DOCUMENTS} as documents
    from applications a join users u on u.id = a.user_id and u.tenant_id = a.tenant_id
    where ${where} order by ${orderOf(query)} limit ${size} offset ${(page - 1) * size}`)) as unknown as {
    rows: Row[];
  };
  const counted = (await db.execute(
    sql`select count(*)::int as total from applications a where ${where}`,
  )) as unknown as { rows: { total: number }[] };
  return {
    rows: result.rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      status: row.status,
      submitted_at: row.submitted_at === null ? null : iso(row.submitted_at),
      updated_at: iso(row.updated_at),
      documents: Number(row.documents),
    })),
    total: counted.rows[0]?.total ?? 0,
    page,
    size,
  };
}
