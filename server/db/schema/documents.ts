/**
 * Uploaded documents with their conversion, and the application PDF prepared from the sources
 * (SPEC 3.4, 4.5).
 */
import { boolean, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { at } from './columns';
import { users } from './accounts';

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
