/**
 * The institution's lists for autocomplete (SPEC 3.7, 4.9).
 */
import { boolean, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { at } from './columns';
import { tenants } from './tenants';

/** One row per tenant and category: which list is live (its version changes on every import). */
export const lookupLists = pgTable(
  'lookup_lists',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    category: text('category').notNull(),
    version: integer('version').notNull(),
    /** True for the bundled sample list seeded on first start. */
    sample: boolean('sample').notNull(),
    rowCount: integer('row_count').notNull(),
    importedAt: at('imported_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.category] })],
);

/** The entries of a list: the display label, the sub-text and the detail record's fields. */
export const lookupEntries = pgTable(
  'lookup_entries',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    category: text('category').notNull(),
    id: text('id').notNull(),
    text: text('text').notNull(),
    subText: text('sub_text').notNull(),
    fields: jsonb('fields').$type<Record<string, string>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.category, t.id] })],
);
