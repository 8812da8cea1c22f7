/**
 * The database schema, one file per domain. Every row carries its tenant, and every query is scoped
 * by it. Secrets (confirmation codes, reset ids, session ids, temporary-answer tokens) are stored
 * hashed. Row-level security policies live in the SQL migrations only (D56).
 */
export * from './tenants';
export * from './accounts';
export * from './applications';
export * from './documents';
export * from './jobs';
export * from './lookup';
export * from './staff';
export * from './staffExports';
