/** Reading the applicant's documents: one conversion's status, the answered files, their PDFs. */
import { asc } from 'drizzle-orm';
import { documentMessages, type ConversionResponse, type DocumentAnswers } from '#contract';
import type { Definition } from '#runtime';
import { answeredOf } from '../db/answeredDocuments';
import { documents } from '../db/schema';
import type { Applicant, ServiceContext } from '../http/context';
import { assertFileQuestion } from './checks';
import { findDocument, type DocumentsContext } from './context';

/** GET /api/pdf/document-answer/{key}: the conversion's status (SPEC 3.4). */
export async function conversionStatus(
  ctx: DocumentsContext,
  user: Applicant,
  definition: Definition,
  questionKey: string,
): Promise<ConversionResponse> {
  assertFileQuestion(definition, questionKey);
  const row = await findDocument(ctx, user, questionKey);
  if (!row?.status)
    return { status: 'NOT_ANSWERED', message: documentMessages.notAnswered, error: null };
  return {
    status: row.status as ConversionResponse['status'],
    message: row.message ?? '',
    error: row.error,
    ...(row.status === 'FAILED' ? { file_name: row.fileName } : {}),
  };
}

/** GET /api/document-answer (and the profile): the files whose conversion completed. */
export async function documentAnswers(
  ctx: Pick<ServiceContext, 'db'>,
  user: Applicant,
): Promise<DocumentAnswers> {
  const rows = await ctx.db
    .select({
      key: documents.questionKey,
      fileName: documents.fileName,
      fileSize: documents.fileSize,
    })
    .from(documents)
    .where(answeredOf(user));
  return Object.fromEntries(
    rows.map((row) => [row.key, { file_name: row.fileName, file_size: row.fileSize }]),
  );
}

/**
 * The document answers of an applicant with their converted PDFs and generations, by question key
 * (the application PDF appends them, and a new generation makes it stale).
 */
export async function convertedDocuments(
  ctx: Pick<ServiceContext, 'db'>,
  user: Applicant,
): Promise<{ questionKey: string; fileName: string; pdfKey: string; generation: number }[]> {
  const rows = await ctx.db
    .select({
      questionKey: documents.questionKey,
      fileName: documents.fileName,
      pdfKey: documents.pdfKey,
      generation: documents.generation,
    })
    .from(documents)
    .where(answeredOf(user))
    .orderBy(asc(documents.questionKey));
  return rows.flatMap((row) => (row.pdfKey ? [{ ...row, pdfKey: row.pdfKey }] : []));
}
