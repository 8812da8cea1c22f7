/** What the staff console takes out of the platform: the CSV's chosen columns (D168), PDF ZIPs (D169). */
import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { at } from './columns';
import { staffUsers } from './staff';

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

/**
 * A ZIP of the filtered set's PDFs (D169): `building` while the worker adds them (`done` of
 * `total`), then `ready` with its sealed object, or `failed`. Removed a day after it finished.
 */
export const staffPdfBundles = pgTable(
  'staff_pdf_bundles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id').notNull(),
    staffUserId: uuid('staff_user_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    filter: jsonb('filter').$type<Record<string, string>>().notNull(),
    state: text('state').$type<'building' | 'ready' | 'failed'>().notNull(),
    total: integer('total').notNull(),
    done: integer('done').notNull().default(0),
    objectKey: text('object_key'),
    fileName: text('file_name').notNull(),
    createdAt: at('created_at').notNull(),
    finishedAt: at('finished_at'),
  },
  (t) => [index('staff_pdf_bundles_finished').on(t.tenantId, t.finishedAt)],
);
