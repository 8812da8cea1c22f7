/**
 * The staff audit log, as the console reads it (rows are written by server/db/auditTrail.ts): who
 * (the staff member, or the command line), what, which applicant, when. It never holds answers or
 * secrets; `detail` is a short description (a role, what a list or an export
 * was filtered on: never the words searched, which can be a name, D109).
 */
import { and, asc, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../db/auditTrail';
import { staffAudit, staffListing } from '../db/schema';
import {
  AUDIT_CLI_ACTOR,
  type ApplicationQuery,
  type AuditAction,
  type AuditEntry,
  type AuditQuery,
} from '../../contract/staff';
import type { ServiceContext } from '../http/context';
import { localMidnight } from './localTimes';
import { labelOf } from '../../runtime';
import type { Tenant } from '../tenant';
import { underAccountLock } from '../account';
import {
  countRows,
  cursorTime,
  positionFrom,
  readsBackwards,
  seekCondition,
  seekPage,
  TIME_KEY,
  type Position,
  type SeekPage,
} from './seekPaging';

const SEARCHED = 'search: yes';
const isSearch = (detail: string | null) => detail?.startsWith(SEARCHED) ?? false;

/** A search that follows the same staff member's last one within this long is the same search (D156). */
export const SEARCH_FOLD_MS = 10_000;

/**
 * A listing with a search: search-as-you-type asks at every pause in the typing, so a search that
 * follows the staff member's previous search within `SEARCH_FOLD_MS`, with nothing else in between,
 * moves that row's time on instead of adding one (D156). Under the staff member's lock, so a burst
 * of parallel requests still leaves one row.
 */
export async function auditSearch(
  ctx: Pick<ServiceContext, 'db' | 'config'>,
  actor: Actor,
  detail: string,
): Promise<void> {
  await underAccountLock(ctx, actor.tenantId, 'audit.search', actor.name, async (tx) => {
    const now = ctx.config.now();
    const [latest] = await tx
      .select({
        id: staffAudit.id,
        action: staffAudit.action,
        detail: staffAudit.detail,
        at: staffAudit.at,
      })
      .from(staffAudit)
      .where(
        and(
          eq(staffAudit.tenantId, actor.tenantId),
          actor.staffUserId
            ? eq(staffAudit.staffUserId, actor.staffUserId)
            : isNull(staffAudit.staffUserId),
        ),
      )
      .orderBy(desc(staffAudit.at), desc(staffAudit.id))
      .limit(1);
    const sameSearch =
      latest?.action === 'application.list' &&
      isSearch(latest.detail) &&
      now.getTime() - latest.at.getTime() <= SEARCH_FOLD_MS;
    if (sameSearch)
      await tx.update(staffAudit).set({ at: now, detail }).where(eq(staffAudit.id, latest.id));
    else
      await tx.insert(staffAudit).values({
        tenantId: actor.tenantId,
        staffUserId: actor.staffUserId,
        actor: actor.name,
        action: 'application.list',
        detail,
        at: now,
      });
  });
}

export const AUDIT_PAGE_SIZE = 50;

/** A row's place: its time to the microsecond and its id (a bigint, as text). */
const auditPosition = (cursor: string) =>
  positionFrom(
    cursor,
    (key, id, rank) =>
      rank === undefined &&
      typeof key === 'string' &&
      TIME_KEY.test(key) &&
      typeof id === 'string' &&
      /^\d{1,18}$/.test(id),
  );

/** Rows strictly after (older than) or before (newer than) a position, newest first. */
function seekAudit(position: Position, side: 'after' | 'before'): SQL {
  const operator = sql.raw(side === 'after' ? '<' : '>');
  return sql`(${staffAudit.at}, ${staffAudit.id}) ${operator} (${position[0]}::timestamptz, ${position[1]}::bigint)`;
}

/** A filter's days, both included, in the institution's time zone. */
function filterOf(tenantId: string, query: AuditQuery, timeZone: string): SQL | undefined {
  const midnight = (day: string) => localMidnight(day, timeZone);
  return and(
    eq(staffAudit.tenantId, tenantId),
    query.who === AUDIT_CLI_ACTOR
      ? isNull(staffAudit.staffUserId)
      : query.who
        ? eq(staffAudit.staffUserId, query.who)
        : undefined,
    query.what ? eq(staffAudit.action, query.what) : undefined,
    query.applicant ? eq(staffAudit.applicantId, query.applicant) : undefined,
    query.from ? sql`${staffAudit.at} >= ${midnight(query.from)}` : undefined,
    query.to ? sql`${staffAudit.at} < ${midnight(query.to)} + interval '1 day'` : undefined,
  );
}

/**
 * The whole history, newest first, filtered, a page found by seeking (D107, D156): each entry with
 * the applicant's name as the list shows it, and a document by its question's label (the row keeps
 * the stable key; the label is the form's now, as the console shows it).
 */
export async function auditEntries(
  ctx: Pick<ServiceContext, 'db' | 'institutionOf'>,
  tenant: Pick<Tenant, 'id' | 'definition'>,
  query: AuditQuery,
): Promise<SeekPage<AuditEntry>> {
  const tenantId = tenant.id;
  const where = filterOf(tenantId, query, ctx.institutionOf(tenantId).time_zone);
  const seekTo = seekCondition(query, (cursor, direction) =>
    seekAudit(auditPosition(cursor), direction),
  );
  const countOf = (where: SQL | undefined) => countRows(ctx.db, staffAudit, where);
  const order = readsBackwards(query) ? asc : desc;
  const page = await seekPage(query, query.size ?? AUDIT_PAGE_SIZE, {
    count: () => countOf(where),
    read: (limit) =>
      ctx.db
        .select({
          id: staffAudit.id,
          sortKey: sql<string>`${cursorTime(staffAudit.at)}`,
          at: staffAudit.at,
          actor: staffAudit.actor,
          action: staffAudit.action,
          applicantId: staffAudit.applicantId,
          applicantName: staffListing.name,
          detail: staffAudit.detail,
        })
        .from(staffAudit)
        .leftJoin(
          staffListing,
          and(
            eq(staffListing.tenantId, staffAudit.tenantId),
            eq(staffListing.userId, staffAudit.applicantId),
          ),
        )
        .where(and(where, seekTo))
        .orderBy(order(staffAudit.at), order(staffAudit.id))
        .limit(limit),
    countBefore: (row) => countOf(and(where, seekAudit([row.sortKey, String(row.id)], 'before'))),
    positionOf: (row) => [row.sortKey, String(row.id)],
  });
  return {
    ...page,
    rows: page.rows.map((row) => ({
      id: String(row.id),
      at: row.at.toISOString(),
      actor: row.actor,
      action: row.action as AuditAction,
      applicant_id: row.applicantId,
      applicant_name: row.applicantId ? (row.applicantName ?? null) : null,
      detail:
        row.action === 'application.document' && row.detail
          ? labelOf(tenant.definition, row.detail)
          : row.detail,
    })),
  };
}

/** What a list or an export was filtered on, for its audit row: whether there was a search, not its words. */
export function filterDetail(query: ApplicationQuery): string {
  const parts = [
    query.q?.trim() ? SEARCHED : null,
    query.status ? `status: ${query.status}` : null,
    query.from ? `from: ${query.from}` : null,
    query.to ? `to: ${query.to}` : null,
    `sort: ${query.sort ?? 'updated'} ${query.dir ?? 'desc'}`,
  ];
  return parts.filter(Boolean).join('; ');
}
