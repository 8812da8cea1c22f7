/**
 * Applicant accounts and what guards them: confirmation codes, reset links, sessions, login
 * throttling and lockout, rolling-hour event counts, and revoked service tokens (D41: service tokens
 * are signed, not stored; one revoked before it expires is remembered here until its expiry).
 */
import {
  bigserial,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { at } from './columns';
import { tenants } from './tenants';

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
    /** When the reminder before an unsubmitted application's deletion was sent (D153): once. */
    retentionRemindedAt: at('retention_reminded_at'),
  },
  (t) => [uniqueIndex('users_tenant_email').on(t.tenantId, t.email)],
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

/** A submitted application's owner asked for the account's deletion; an admin completes it (D152). */
export const deletionRequests = pgTable(
  'deletion_requests',
  {
    tenantId: text('tenant_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestedAt: at('requested_at').notNull(),
  },
  (t) => [primaryKey({ name: 'deletion_requests_pk', columns: [t.tenantId, t.userId] })],
);

/**
 * Stored objects of deleted rows still to be removed from storage: written with the rows' deletion,
 * removed once the object is; the retention sweep tries again what a failed delete left (D152).
 */
export const objectDeletions = pgTable(
  'object_deletions',
  {
    tenantId: text('tenant_id').notNull(),
    objectKey: text('object_key').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [primaryKey({ name: 'object_deletions_pk', columns: [t.tenantId, t.objectKey] })],
);
