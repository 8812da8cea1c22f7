/**
 * The tenants: every other row carries one of their ids, and every query is scoped by it.
 */
import { sql } from 'drizzle-orm';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { at } from './columns';

export const tenants = pgTable('tenants', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  definitionId: text('definition_id').notNull(),
  hosts: text('hosts')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  createdAt: at('created_at').notNull().defaultNow(),
});
