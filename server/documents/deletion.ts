/** Deleting a conversion or a whole document answer: the row changes under the application's lock. */
import type { Definition } from '#runtime';
import { documents } from '../db/schema';
import type { Applicant } from '../http/context';
import { whileOpen } from '../application';
import { assertFileQuestion } from './checks';
import {
  CONVERSION_JOB,
  documentRowOf,
  ownerOf,
  removeObjects,
  type DocumentsContext,
} from './context';

/** DELETE /api/pdf/document-answer/{key}: the conversion goes (a queued or running one is dropped). */
export async function deleteConversion(
  ctx: DocumentsContext,
  user: Applicant,
  definition: Definition,
  questionKey: string,
): Promise<void> {
  assertFileQuestion(definition, questionKey);
  const row = await whileOpen(ctx, user, async (tx) => {
    const [found] = await tx.select().from(documents).where(documentRowOf(user, questionKey));
    if (!found) return undefined;
    await tx
      .update(documents)
      .set({
        status: null,
        message: null,
        error: null,
        pdfKey: null,
        generation: found.generation + 1,
        updatedAt: ctx.config.now(),
      })
      .where(documentRowOf(user, questionKey));
    return found;
  });
  if (!row) return;
  await ctx.queue.cancel(CONVERSION_JOB, { ...ownerOf(user), questionKey });
  await removeObjects(ctx, [row.pdfKey]);
}

/** DELETE /api/document-answer/{key}: the file, its conversion and the answer go. */
export async function deleteDocumentAnswer(
  ctx: DocumentsContext,
  user: Applicant,
  definition: Definition,
  questionKey: string,
): Promise<void> {
  assertFileQuestion(definition, questionKey);
  const [row] = await whileOpen(ctx, user, (tx) =>
    tx.delete(documents).where(documentRowOf(user, questionKey)).returning(),
  );
  if (!row) return;
  await ctx.queue.cancel(CONVERSION_JOB, { ...ownerOf(user), questionKey });
  await removeObjects(ctx, [row.fileKey, row.pdfKey]);
}
