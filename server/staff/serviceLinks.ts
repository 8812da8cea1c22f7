/**
 * The service links staff mint in the console (D131): one application's links on its page, and
 * every link of the tenant, newest first, a page at a time (`/staff/links`, admins). A link is live
 * until it expires or is revoked; revoking is idempotent, and only the call that revoked it says so
 * (the route audits that one).
 */
import { and, asc, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import {
  staffMessages,
  type LinkListRow,
  type LinkState,
  type PagePosition,
} from '../../contract/staff';
import { staffListing, staffServiceLinks, staffUsers, users } from '../db/schema';
import { HttpError } from '../errors';
import type { ServiceContext } from '../http/context';
import { mintServiceToken, revokeServiceToken } from '../serviceView';
import type { Applicant } from './applicationAccess';
import { DEFAULT_PAGE_SIZE } from './applicationList';
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
import type { StaffSession } from './sessions';

const links = staffServiceLinks;

export function linkState(link: { revokedAt: Date | null; expiresAt: Date }, now: Date): LinkState {
  if (link.revokedAt) return 'revoked';
  return link.expiresAt.getTime() <= now.getTime() ? 'expired' : 'live';
}

const LINK_COLUMNS = {
  id: links.tokenId,
  expiresAt: links.expiresAt,
  revokedAt: links.revokedAt,
  openedAt: links.openedAt,
  createdAt: links.createdAt,
  createdBy: staffUsers.email,
};

interface LinkColumns {
  id: string;
  expiresAt: Date;
  revokedAt: Date | null;
  openedAt: Date | null;
  createdAt: Date;
  createdBy: string | null;
}

function linkOf(row: LinkColumns, now: Date) {
  return {
    id: row.id,
    state: linkState(row, now),
    expires_at: row.expiresAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy,
    opened_at: row.openedAt?.toISOString() ?? null,
  };
}

export async function mintLink(ctx: ServiceContext, session: StaffSession, applicant: Applicant) {
  const minted = await mintServiceToken(ctx, applicant.tenantId, applicant.email, session.email);
  await ctx.db.insert(links).values({
    tenantId: applicant.tenantId,
    tokenId: minted.id,
    userId: applicant.userId,
    staffUserId: session.staffUserId,
    expiresAt: new Date(minted.expires_at),
    createdAt: ctx.config.now(),
  });
  return { id: minted.id, url: minted.url, expires_at: minted.expires_at };
}

/** One application's links, newest first. */
export async function listLinks(ctx: ServiceContext, applicant: Applicant) {
  const rows = await ctx.db
    .select(LINK_COLUMNS)
    .from(links)
    .leftJoin(staffUsers, eq(staffUsers.id, links.staffUserId))
    .where(and(eq(links.tenantId, applicant.tenantId), eq(links.userId, applicant.userId)))
    .orderBy(desc(links.createdAt));
  const now = ctx.config.now();
  return rows.map((row) => linkOf(row, now));
}

/** Rows after (older than) or before (newer than) a position, newest first. */
function seekLinks(position: Position, side: 'after' | 'before'): SQL {
  const operator = sql.raw(side === 'after' ? '<' : '>');
  return sql`(${links.createdAt}, ${links.tokenId}) ${operator} (${position[0]}::timestamptz, ${position[1]}::text)`;
}

const TOKEN_ID = /^[A-Za-z0-9_-]{16,64}$/;
const linkPosition = (cursor: string) =>
  positionFrom(
    cursor,
    (key, id, rank) =>
      rank === undefined &&
      typeof key === 'string' &&
      TIME_KEY.test(key) &&
      typeof id === 'string' &&
      TOKEN_ID.test(id),
  );

/** Every link of the tenant with its application, newest first, a page found by seeking (D107). */
export async function listAllLinks(
  ctx: ServiceContext,
  tenantId: string,
  page: PagePosition,
): Promise<SeekPage<LinkListRow>> {
  const ofTenant = eq(links.tenantId, tenantId);
  const seekTo = seekCondition(page, (cursor, direction) =>
    seekLinks(linkPosition(cursor), direction),
  );
  const countOf = (where: SQL | undefined) => countRows(ctx.db, links, where);
  const order = readsBackwards(page) ? asc : desc;
  const found = await seekPage(page, page.size ?? DEFAULT_PAGE_SIZE, {
    count: () => countOf(ofTenant),
    read: (limit) =>
      ctx.db
        .select({
          ...LINK_COLUMNS,
          sortKey: sql<string>`${cursorTime(links.createdAt)}`,
          applicantId: links.userId,
          applicantEmail: users.email,
          applicantName: staffListing.name,
        })
        .from(links)
        .innerJoin(users, eq(users.id, links.userId))
        .leftJoin(
          staffListing,
          and(eq(staffListing.tenantId, links.tenantId), eq(staffListing.userId, links.userId)),
        )
        .leftJoin(staffUsers, eq(staffUsers.id, links.staffUserId))
        .where(and(ofTenant, seekTo))
        .orderBy(order(links.createdAt), order(links.tokenId))
        .limit(limit),
    countBefore: (row) => countOf(and(ofTenant, seekLinks([row.sortKey, row.id], 'before'))),
    positionOf: (row) => [row.sortKey, row.id],
  });
  const now = ctx.config.now();
  return {
    ...found,
    rows: found.rows.map((row) => ({
      ...linkOf(row, now),
      applicant_id: row.applicantId,
      applicant_name: row.applicantName ?? '',
      applicant_email: row.applicantEmail,
    })),
  };
}

/**
 * Revokes one link of the applicant: the token is refused from then on. True for the call that
 * revoked it, false when it already was (parallel or repeated calls); a link of no such applicant
 * is a 404.
 */
export async function revokeLink(
  ctx: ServiceContext,
  applicant: Applicant,
  tokenId: string,
): Promise<boolean> {
  const ofLink = and(
    eq(links.tenantId, applicant.tenantId),
    eq(links.userId, applicant.userId),
    eq(links.tokenId, tokenId),
  );
  const [exists] = await ctx.db.select({ id: links.tokenId }).from(links).where(ofLink);
  if (!exists) throw new HttpError(404, staffMessages.noSuchLink);
  // The token is refused before any answer says "revoked", whichever call gets there first.
  await revokeServiceToken(ctx, applicant.tenantId, tokenId);
  const revoked = await ctx.db
    .update(links)
    .set({ revokedAt: ctx.config.now() })
    .where(and(ofLink, isNull(links.revokedAt)))
    .returning({ id: links.tokenId });
  return revoked.length > 0;
}
