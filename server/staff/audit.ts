/**
 * The staff audit log: who (the staff member, or the command line), what, which applicant, when. It
 * never holds answers or secrets; `detail` is a short description (a role, what a list or an export
 * was filtered on: never the words searched, which can be a name, D109).
 */
import { and, desc, eq, lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { staffAudit } from '../db/schema';
import type { ApplicationQuery } from '../../contract/staff';
import type { ServiceContext } from '../services/context';

export const AUDIT_ACTIONS = [
  'staff.added',
  'staff.invited',
  'staff.joined',
  'staff.enrolled',
  'staff.signed_in',
  'staff.recovery_code_used',
  'staff.disabled',
  'application.list',
  'application.read',
  'application.pdf',
  'application.document',
  'application.export',
  'link.list',
  'link.minted',
  'link.revoked',
  'account.deleted',
  'account.deletion_requested',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface Actor {
  readonly tenantId: string;
  readonly staffUserId: string | null;
  /** The staff member's address, or `cli`. */
  readonly name: string;
}

/** Writes an audit row (in a transaction when `ctx.db` is one). */
export async function audit(
  ctx: { readonly db: Pick<Database, 'insert'>; readonly config: ServiceContext['config'] },
  actor: Actor,
  action: AuditAction,
  applicantId: string | null = null,
  detail: string | null = null,
): Promise<void> {
  await ctx.db.insert(staffAudit).values({
    tenantId: actor.tenantId,
    staffUserId: actor.staffUserId,
    actor: actor.name,
    action,
    applicantId,
    detail,
    at: ctx.config.now(),
  });
}

export const AUDIT_PAGE = 200;

/** The newest entries first; `before` (an id) pages further back. */
export async function auditEntries(
  ctx: Pick<ServiceContext, 'db'>,
  tenantId: string,
  before?: number,
) {
  const rows = await ctx.db
    .select()
    .from(staffAudit)
    .where(
      and(
        eq(staffAudit.tenantId, tenantId),
        before === undefined ? undefined : lt(staffAudit.id, before),
      ),
    )
    .orderBy(desc(staffAudit.at), desc(staffAudit.id))
    .limit(AUDIT_PAGE);
  return rows.map((row) => ({
    at: row.at.toISOString(),
    actor: row.actor,
    action: row.action,
    applicant_id: row.applicantId,
    detail: row.detail,
  }));
}

/** What a list or an export was filtered on, for its audit row: whether there was a search, not its words. */
export function filterDetail(query: ApplicationQuery): string {
  const parts = [
    query.q?.trim() ? 'search: yes' : null,
    query.status ? `status: ${query.status}` : null,
    query.from ? `from: ${query.from}` : null,
    query.to ? `to: ${query.to}` : null,
    `sort: ${query.sort ?? 'updated'} ${query.dir ?? 'desc'}`,
  ];
  return parts.filter(Boolean).join('; ');
}
