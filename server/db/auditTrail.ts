/**
 * Writing the staff audit log (its reading is the staff console's, server/staff/audit.ts): here,
 * below the staff console, the account deletion and the platform that all write it, so none
 * imports another to leave a row (D204). A row never holds answers or secrets.
 */
import type { AuditAction } from '../../contract/staff';
import type { ServerConfig } from '../config';
import type { Database } from './client';
import { staffAudit } from './schema';

export interface Actor {
  readonly tenantId: string;
  readonly staffUserId: string | null;
  /** The staff member's address, or `cli`. */
  readonly name: string;
}

/** Writes an audit row (in a transaction when `ctx.db` is one). */
export async function audit(
  ctx: { readonly db: Pick<Database, 'insert'>; readonly config: Pick<ServerConfig, 'now'> },
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
