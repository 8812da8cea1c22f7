/**
 * The database schema. Every row carries its tenant, and every query is scoped by it.
 * Secrets (confirmation codes, reset ids, session ids, temporary-answer tokens) are stored hashed.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

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

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    confirmedAt: at('confirmed_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('users_tenant_email').on(t.tenantId, t.email),
    // The staff console's search by address prefix (LIKE 'x%' whatever the collation).
    index('users_email_prefix').on(t.tenantId, t.email.op('text_pattern_ops')),
  ],
);

/** The one live confirmation code of an account (a resend replaces it). */
export const confirmationCodes = pgTable('confirmation_codes', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tenantId: text('tenant_id').notNull(),
  codeHash: text('code_hash').notNull(),
  wrongGuesses: integer('wrong_guesses').notNull().default(0),
  expiresAt: at('expires_at').notNull(),
  createdAt: at('created_at').notNull(),
});

/** Reset links: only the newest per account is live. */
export const resetTokens = pgTable(
  'reset_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('reset_tokens_user').on(t.tenantId, t.userId)],
);

/** Login failures per typed username (known or not, so a lockout reveals nothing). */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    tenantId: text('tenant_id').notNull(),
    username: text('username').notNull(),
    failures: integer('failures').notNull().default(0),
    lockedUntil: at('locked_until'),
    lastAttemptAt: at('last_attempt_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.username] })],
);

/** Per-account events counted over a rolling hour (confirm tries, resends, reset requests and tries). */
export const accountEvents = pgTable(
  'account_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: text('tenant_id').notNull(),
    username: text('username').notNull(),
    kind: text('kind').notNull(),
    at: at('at').notNull(),
  },
  (t) => [index('account_events_lookup').on(t.tenantId, t.username, t.kind, t.at)],
);

export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull(),
    lastSeenAt: at('last_seen_at').notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('sessions_user').on(t.tenantId, t.userId)],
);

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
    version: integer('version').notNull().default(0),
    /** Per answer key, the `version` that last wrote it (SECURITY.md REQ-R-2: per-field conflicts). */
    keyVersions: jsonb('key_versions').$type<Record<string, number>>().notNull().default({}),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId] }),
    // The staff console's sorts and name search (server/staff/applicationList.ts).
    index('applications_updated').on(t.tenantId, t.updatedAt),
    index('applications_submitted').on(t.tenantId, t.submittedAt),
    index('applications_first_name').on(
      t.tenantId,
      sql`lower(${t.answers}->>'first_name') text_pattern_ops`,
    ),
    index('applications_last_name').on(
      t.tenantId,
      sql`lower(${t.answers}->>'last_name') text_pattern_ops`,
    ),
  ],
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

export const successfulLogins = pgTable(
  'successful_logins',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: text('tenant_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    at: at('at').notNull(),
  },
  (t) => [index('successful_logins_user').on(t.tenantId, t.userId)],
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

// ---------------------------------------------------------------------------------------------
// Service users (issue 6, docs/decisions/ D41). Service tokens are signed and not stored; a token
// revoked before it expires is remembered here by its random id until its expiry.

export const serviceTokenRevocations = pgTable(
  'service_token_revocations',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    tokenId: text('token_id').notNull(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.tokenId] })],
);

// --- Hardening (issue 8) ---------------------------------------------------------------------

/**
 * Consecutive failed logins per typed username since the last success or password reset. Unlike
 * login_throttle it is not forgotten after 15 quiet minutes: at 100 it is a hard stop until the
 * password is reset (SECURITY.md REQ-ID-2, NIST SP 800-63B 5.2.2).
 */
export const loginFailureStreaks = pgTable(
  'login_failure_streaks',
  {
    tenantId: text('tenant_id').notNull(),
    username: text('username').notNull(),
    failures: integer('failures').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.username] })],
);

// ---- Lookup (issue 7): the institution's lists for autocomplete (SPEC 3.7, 4.9) ----

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

// ---------------------------------------------------------------------------------------------
// Documents (issue 5): uploaded files with their conversion, and the durable job queue.
// ---------------------------------------------------------------------------------------------

/**
 * One uploaded document per applicant and file question: the stored original, its conversion status
 * (SPEC 3.4; null once the conversion is deleted) and the converted PDF kept for the application PDF.
 * `answered` turns true when the conversion completes: only then is it a document answer.
 */
export const documents = pgTable(
  'documents',
  {
    tenantId: text('tenant_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    questionKey: text('question_key').notNull(),
    fileKey: text('file_key').notNull(),
    fileName: text('file_name').notNull(),
    fileSize: integer('file_size').notNull(),
    status: text('status'),
    message: text('message'),
    error: text('error'),
    pdfKey: text('pdf_key'),
    answered: boolean('answered').notNull().default(false),
    /** Bumped on every new upload, so a late job for an older file changes nothing. */
    generation: integer('generation').notNull().default(0),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId, t.questionKey] })],
);

/**
 * The durable job queue (docs/decisions/ D30): claimed with FOR UPDATE SKIP LOCKED, retried with
 * attempts, and re-claimed after `locked_until` when a worker died holding it.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** queued, running, done or failed. */
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    runAfter: at('run_after').notNull(),
    lockedUntil: at('locked_until'),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [index('jobs_ready').on(t.status, t.runAfter)],
);

// ---------------------------------------------------------------------------------------------
// The application PDF (issue 6): one per applicant, prepared by a job and kept until its sources
// change (SPEC 3.4, 4.5).
// ---------------------------------------------------------------------------------------------

/**
 * The applicant's PDF copy: its status (SPEC 3.4's enumeration), the stored file once COMPLETED, and
 * `source`, a digest of what it was made from (answers, tabs, documents, submission), so a change
 * makes it stale and the next request prepares it again. `generation` lets a late job for older
 * sources change nothing.
 */
export const applicationPdfs = pgTable(
  'application_pdfs',
  {
    tenantId: text('tenant_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    message: text('message'),
    pdfKey: text('pdf_key'),
    source: text('source').notNull(),
    generation: integer('generation').notNull().default(1),
    requestedAt: at('requested_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId] })],
);

// ---------------------------------------------------------------------------------------------
// The staff console (issue 18, docs/staff.md): staff accounts per tenant, never applicants, with a
// second factor; their sessions, invitations, recovery codes, the service links they mint, and the
// audit log of every read, download and export.
// ---------------------------------------------------------------------------------------------

/**
 * A staff member. `passwordHash` is null until the invitation is taken up; `totpSecret` is the TOTP
 * key encrypted with AES-256-GCM (server/staff/secretBox.ts), set at enrolment and live once
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

/** The service links staff minted in the console, so they can be listed and revoked. */
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
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.tokenId] }),
    index('staff_service_links_user').on(t.tenantId, t.userId),
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
  (t) => [index('staff_audit_recent').on(t.tenantId, t.at)],
);
