/** What the staff console takes out of the platform: the CSV's chosen columns (D168). */
import { jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { at } from './columns';

/**
 * The answer columns an admin chose for the tenant's CSV, shared by the office; no row means every
 * column. `updatedBy` is the admin's address, as the audit names them.
 */
export const staffExportColumns = pgTable('staff_export_columns', {
  tenantId: text('tenant_id').primaryKey(),
  columns: jsonb('columns').$type<string[]>().notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: at('updated_at').notNull(),
});
