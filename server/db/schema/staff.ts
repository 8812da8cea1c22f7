/**
 * The staff console (docs/staff.md): staff accounts per tenant, never applicants, with a second
 * factor; their sessions, invitations, password resets, recovery codes, the service links they
 * mint, and the audit log of every read, download and export.
 */
import {
  bigint,
  bigserial,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { at } from './columns';
import { tenants } from './tenants';
import { users } from './accounts';

/**
 * A staff member. `passwordHash` is null until the invitation is taken up; `totpSecret` is the TOTP
 * key encrypted with AES-256-GCM (server/crypto/secretBox.ts), set at enrolment and live once
 * `totpEnrolledAt` is; `totpLastStep` is the newest 30-second step used, so a code works once.
 */
export const staffUsers = pgTable(
  'staff_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    email: text('email').notNull(),
    role: text('role').$type<'reader' | 'admin'>().notNull(),
    passwordHash: text('password_hash'),
    totpSecret: text('totp_secret'),
    totpEnrolledAt: at('totp_enrolled_at'),
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    disabledAt: at('disabled_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [uniqueIndex('staff_users_tenant_email').on(t.tenantId, t.email)],
);

/** Invitation links (hashed): single use, 7 days; a new invitation replaces the older ones. */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    tokenHash: text('token_hash').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    staffUserId: uuid('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('staff_invitations_user').on(t.tenantId, t.staffUserId)],
);

/** "Forgot password?" links (hashed, D166): single use, one hour; a new request replaces the older. */
export const staffPasswordResets = pgTable(
  'staff_password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    staffUserId: uuid('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('staff_password_resets_user').on(t.tenantId, t.staffUserId)],
);

/** One-time recovery codes (hashed), issued at enrolment. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    tenantId: text('tenant_id').notNull(),
    staffUserId: uuid('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.staffUserId, t.codeHash] })],
);

/** Staff sessions: `verifiedAt` is null between the password and the second factor. */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    staffUserId: uuid('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    verifiedAt: at('verified_at'),
    createdAt: at('created_at').notNull(),
    lastSeenAt: at('last_seen_at').notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('staff_sessions_user').on(t.tenantId, t.staffUserId)],
);

/**
 * The service links staff minted in the console, so they can be listed and revoked; `openedAt` is
 * when a reviewer last opened one. Every link of a tenant is listed newest first, a page at a time
 * (`staff_service_links_recent`).
 */
export const staffServiceLinks = pgTable(
  'staff_service_links',
  {
    tenantId: text('tenant_id').notNull(),
    tokenId: text('token_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    staffUserId: uuid('staff_user_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
    openedAt: at('opened_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.tokenId] }),
    index('staff_service_links_user').on(t.tenantId, t.userId),
    index('staff_service_links_recent').on(t.tenantId, t.createdAt, t.tokenId),
  ],
);

/** Who did what when: every staff read, download, export and administration (no answer data). */
export const staffAudit = pgTable(
  'staff_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: text('tenant_id').notNull(),
    staffUserId: uuid('staff_user_id'),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    applicantId: uuid('applicant_id'),
    detail: text('detail'),
    at: at('at').notNull(),
  },
  (t) => [
    index('staff_audit_recent').on(t.tenantId, t.at, t.id),
    index('staff_audit_by_staff').on(t.tenantId, t.staffUserId, t.at, t.id),
    index('staff_audit_by_action').on(t.tenantId, t.action, t.at, t.id),
    index('staff_audit_by_applicant')
      .on(t.tenantId, t.applicantId, t.at, t.id)
      .where(sql`${t.applicantId} is not null`),
  ],
);
/**
 * The console's list (D108): one row per application with what the list shows, filters and sorts
 * on, each sort indexed with the tenant and the id so a page is an index range (D107). The database
 * keeps it in step by triggers on applications, users, web_status_events and documents, whose
 * current text is server/db/sql/staff_list.sql (D170); nothing in the application writes it.
 */
export const staffListing = pgTable(
  'staff_listing',
  {
    tenantId: text('tenant_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** "First Middle Last", as shown. */
    name: text('name').notNull().default(''),
    /** "last first", lower case: the name sort. */
    sortName: text('sort_name').notNull().default(''),
    email: text('email').notNull(),
    /**
     * The words of every name and of the address, folded by `staff_search_words` (migration 0017),
     * space-separated: a search word must start one of its words (D126, D146).
     */
    search: text('search').notNull().default(''),
    status: text('status').notNull().default('started'),
    submittedAt: at('submitted_at'),
    /** `submitted_at`, or -infinity before submission: a sort key without nulls. */
    submittedSort: at('submitted_sort').notNull(),
    updatedAt: at('updated_at').notNull(),
    documents: integer('documents').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId] }),
    index('staff_listing_updated').on(t.tenantId, t.updatedAt, t.userId),
    index('staff_listing_submitted').on(t.tenantId, t.submittedSort, t.userId),
    index('staff_listing_name').on(t.tenantId, t.sortName, t.userId),
    index('staff_listing_email').on(t.tenantId, t.email, t.userId),
    index('staff_listing_status').on(t.tenantId, t.status, t.userId),
    index('staff_listing_status_updated').on(t.tenantId, t.status, t.updatedAt, t.userId),
    index('staff_listing_documents').on(t.tenantId, t.documents, t.userId),
  ],
);
/**
 * The words of each list row's `search` (D126), in byte order ("C" collation, set by migration
 * 0011), so a search word is a range of the primary key: `word >= w and word < next(w)`. A range
 * uses only leakproof comparisons, which row-level security lets an index answer; a LIKE on the
 * trigram index it cannot. The database keeps it from `staff_listing` by a trigger
 * (server/db/sql/staff_list.sql).
 */
export const staffListingWords = pgTable(
  'staff_listing_words',
  {
    tenantId: text('tenant_id').notNull(),
    /** A word of `search`, cut at 200 characters (a search is at most 100). */
    word: text('word').notNull(),
    userId: uuid('user_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.word, t.userId] }),
    // A row's words, for the trigger that rewrites them and the cascade that removes them.
    index('staff_listing_words_of_row').on(t.tenantId, t.userId),
    foreignKey({
      name: 'staff_listing_words_row',
      columns: [t.tenantId, t.userId],
      foreignColumns: [staffListing.tenantId, staffListing.userId],
    }).onDelete('cascade'),
  ],
);
