/** Printing the whole copy: one Chromium print of the HTML, the documents drawn on its framed pages. */
import { PDFDocument } from 'pdf-lib';
import { applicantNameOf } from '#renderers/print/render.ts';
import type { Definition } from '#runtime';
import type { ApplicationPdfContext } from './context';
import { copyAttachments, copyHtml } from './layout';
import { drawAttachedPages } from './pages';
import type { Sources } from './sources';

/**
 * Builds the PDF in one Chromium print (D114): the print set's HTML with, for each converted
 * document the copy shows, one framed empty page per page, the first captioned with its question
 * and file (D161, D197), so the header and "Page N of M" count and cover them; then each document's
 * pages are drawn on its empty pages, in the order the copy shows them. Chromium prints it tagged,
 * with an outline of its headings, so a screen reader reads it and a reader can jump to a part.
 */
export async function buildApplicationPdf(
  ctx: Pick<ApplicationPdfContext, 'printer' | 'storage'>,
  definition: Definition,
  sources: Sources,
  now: Date,
): Promise<Uint8Array> {
  const documents: PDFDocument[] = [];
  for (const document of copyAttachments(definition, sources, now)) {
    const bytes = await ctx.storage.get(document.pdfKey);
    if (!bytes) throw new Error(`converted document missing for ${document.questionKey}`);
    documents.push(await PDFDocument.load(bytes));
  }
  const pageCounts = documents.map((document) => document.getPageCount());
  const attachedPages = pageCounts.reduce((sum, count) => sum + Math.max(1, count), 0);
  const html = copyHtml(definition, sources, now, pageCounts);
  const output = await PDFDocument.load(
    await ctx.printer.htmlToPdf(html, undefined, { reusePage: true, tagged: true }),
  );
  let next = output.getPageCount() - attachedPages;
  if (next < 1)
    throw new Error(`copy printed ${output.getPageCount()} pages for ${attachedPages} attached`);
  for (const document of documents) next = await drawAttachedPages(output, document, next);
  const name = applicantNameOf(sources.answers);
  output.setTitle([definition.title, name].filter(Boolean).join(' – '));
  output.setSubject(definition.title);
  output.setCreator(definition.title);
  output.setProducer(definition.title);
  output.setCreationDate(now);
  output.setModificationDate(now);
  return output.save();
}
