/**
 * The CSV's columns an admin chose for the office (D168): one row per tenant, the answer keys in the
 * form's order; no row means every column. The list is checked against the form's columns (every
 * published version's), so a key the form does not have is refused rather than kept unused.
 */
import { eq } from 'drizzle-orm';
import { exportMessages, type ExportColumns } from '../../contract/staffExports';
import { staffExportColumns } from '../db/schema';
import { HttpError } from '../errors';
import type { ServiceContext } from '../http/context';
import type { Tenant } from '../tenant';
import { audit, type Actor } from '../db/auditTrail';
import { versionedAnswerColumns } from './exportCsv';

type Versions = Pick<Tenant, 'versions' | 'definitionAt'>;

/** The saved choice, or null for every column. */
export async function chosenColumns(
  ctx: Pick<ServiceContext, 'db'>,
  tenantId: string,
): Promise<string[] | null> {
  const [row] = await ctx.db
    .select({ columns: staffExportColumns.columns })
    .from(staffExportColumns)
    .where(eq(staffExportColumns.tenantId, tenantId));
  return row?.columns ?? null;
}

/** Every answer column as the CSV heads it, and the office's choice. */
export async function exportColumns(
  ctx: Pick<ServiceContext, 'db'>,
  tenantId: string,
  tenant: Versions,
): Promise<ExportColumns> {
  return {
    columns: versionedAnswerColumns(tenant).map((column) => ({
      key: column.key,
      label: column.header,
    })),
    chosen: await chosenColumns(ctx, tenantId),
  };
}

/** Saves the choice in the form's order (last save wins) and audits it in the same transaction. */
export async function saveColumns(
  ctx: Pick<ServiceContext, 'db' | 'config'>,
  actor: Actor,
  tenant: Versions,
  keys: readonly string[],
): Promise<string[]> {
  const all = versionedAnswerColumns(tenant).map((column) => column.key);
  const known = new Set(all);
  if (keys.some((key) => !known.has(key))) throw new HttpError(400, exportMessages.unknownColumn);
  const wanted = new Set(keys);
  const columns = all.filter((key) => wanted.has(key));
  const now = ctx.config.now();
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(staffExportColumns)
      .values({ tenantId: actor.tenantId, columns, updatedBy: actor.name, updatedAt: now })
      .onConflictDoUpdate({
        target: staffExportColumns.tenantId,
        set: { columns, updatedBy: actor.name, updatedAt: now },
      });
    await audit(
      { db: tx, config: ctx.config },
      actor,
      'export.columns_chosen',
      null,
      `${columns.length} of ${all.length} columns`,
    );
  });
  return columns;
}

/** "Reset to all columns": the choice goes; audited as a choice of every column. */
export async function resetColumns(
  ctx: Pick<ServiceContext, 'db' | 'config'>,
  actor: Actor,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await tx.delete(staffExportColumns).where(eq(staffExportColumns.tenantId, actor.tenantId));
    await audit(
      { db: tx, config: ctx.config },
      actor,
      'export.columns_chosen',
      null,
      'all columns',
    );
  });
}
