/**
 * The application: the saved answers per applicant, the web-status events, and the anonymous
 * temporary answers reached through a token in the address (SPEC 2.1).
 */
import {
  bigserial,
  boolean,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { at } from './columns';
import { users } from './accounts';

export const applications = pgTable(
  'applications',
  {
    tenantId: text('tenant_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    answers: jsonb('answers').$type<Record<string, unknown>>().notNull().default({}),
    lastPage: text('last_page'),
    addAnother: jsonb('add_another').$type<Record<string, number>>().notNull().default({}),
    tabs: jsonb('tabs').$type<Record<string, string>>().notNull().default({}),
    validations: jsonb('validations').$type<Record<string, string[]>>(),
    submittedAt: at('submitted_at'),
    /** The definition version it was submitted under (D145); NULL before submission. */
    definitionVersion: integer('definition_version'),
    version: integer('version').notNull().default(0),
    /** Per answer key, the `version` that last wrote it (SECURITY.md REQ-R-2: per-field conflicts). */
    keyVersions: jsonb('key_versions').$type<Record<string, number>>().notNull().default({}),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId] })],
);

export const webStatusEvents = pgTable(
  'web_status_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: text('tenant_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    webStatus: text('web_status').notNull(),
    at: at('at').notNull(),
  },
  (t) => [uniqueIndex('web_status_once').on(t.tenantId, t.userId, t.webStatus)],
);

/** Anonymous temporary answers, reached through a token in the address (SPEC 2.1). */
export const tmpAnswers = pgTable('tmp_answers', {
  tokenHash: text('token_hash').primaryKey(),
  tenantId: text('tenant_id').notNull(),
  answers: jsonb('answers').$type<Record<string, unknown>>().notNull(),
  expiresAt: at('expires_at').notNull(),
  createdAt: at('created_at').notNull(),
  consumed: boolean('consumed').notNull().default(false),
});
