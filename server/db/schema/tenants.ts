/**
 * The tenants: every other row carries one of their ids, and every query is scoped by it.
 */
import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import type { InstitutionFile } from '#definitions/institutionFile.ts';
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
  /** The institution file (D145); NULL only before the start that seeds it. */
  institution: jsonb('institution').$type<InstitutionFile>(),
  /** Raised by every publish and institution change: processes reload when it moves (D145). */
  revision: integer('revision').notNull().default(0),
});

/** A tenant's published definitions: immutable, numbered from 1 without gaps (D145). */
export const definitionVersions = pgTable(
  'definition_versions',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    version: integer('version').notNull(),
    definition: jsonb('definition').$type<unknown>().notNull(),
    publishedAt: at('published_at').notNull().defaultNow(),
    publishedBy: text('published_by').notNull(),
  },
  (t) => [
    primaryKey({ name: 'definition_versions_pk', columns: [t.tenantId, t.version] }),
    check('definition_versions_positive', sql`${t.version} >= 1`),
  ],
);

/**
 * A tenant's data key of one version, wrapped by the master key `masterKeyId` names (D150); never
 * stored in clear. The highest version seals; older ones open what is still under them (D167).
 */
export const tenantDataKeys = pgTable(
  'tenant_data_keys',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    version: integer('version').notNull().default(1),
    wrappedKey: text('wrapped_key').notNull(),
    masterKeyId: text('master_key_id').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'tenant_data_keys_pk', columns: [t.tenantId, t.version] }),
    check('tenant_data_keys_version_positive', sql`${t.version} >= 1`),
  ],
);

/**
 * The runs of `npm run keys -- rotate --reencrypt` (D167): the next run resumes one stopped midway
 * (no `finishedAt`) and leaves the tenants it had finished as they are.
 */
export const keyReencryptionRuns = pgTable('key_reencryption_runs', {
  id: serial('id').primaryKey(),
  startedAt: at('started_at').notNull().defaultNow(),
  finishedAt: at('finished_at'),
});
