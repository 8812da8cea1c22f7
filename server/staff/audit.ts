/**
 * The staff audit log: who (the staff member, or the command line), what, which applicant, when. It
 * never holds answers or secrets; `detail` is a short description (an export's filter, a role).
 */
import { and, desc, eq, lt } from 'drizzle-orm';
import { staffAudit } from '../db/schema';
import type { ServiceContext } from '../services/context';

export const AUDIT_ACTIONS = [
  'staff.added',
  'staff.invited',
  'staff.joined',
  'staff.enrolled',
  'staff.signed_in',
  'staff.recovery_code_used',
  'staff.disabled',
  'application.read',
  'application.pdf',
  'application.document',
  'application.export',
  'link.minted',
  'link.revoked',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface Actor {
  readonly tenantId: string;
  readonly staffUserId: string | null;
  /** The staff member's address, or `cli`. */
  readonly name: string;
}

export async function audit(
  ctx: Pick<ServiceContext, 'db' | 'config'>,
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
