/** Printing the whole copy: Chromium's print of the HTML, the documents attached, the frames stamped. */
import { PDFDocument } from 'pdf-lib';
import { applicantNameOf } from '../../../renderers/print/render';
import type { Definition } from '../../../runtime';
import type { ApplicationPdfContext } from './context';
import { copyHtml } from './layout';
import { attachPages, stampFrames } from './pages';
import type { Sources } from './sources';

/**
 * Builds the PDF: the print set's HTML printed by Chromium, then each converted document the copy
 * shows, in the order the copy shows them, then the same header and page numbers on every page.
 */
export async function buildApplicationPdf(
  ctx: Pick<ApplicationPdfContext, 'printer' | 'storage'>,
  definition: Definition,
  sources: Sources,
  now: Date,
): Promise<Uint8Array> {
  const { html, attachments, applicantName, date } = copyHtml(definition, sources, now);
  const output = await PDFDocument.load(await ctx.printer.htmlToPdf(html));
  for (const document of attachments) {
    const bytes = await ctx.storage.get(document.pdfKey);
    if (!bytes) throw new Error(`converted document missing for ${document.questionKey}`);
    await attachPages(output, await PDFDocument.load(bytes));
  }
  await stampFrames(ctx, output, { applicantName, date });
  const name = applicantNameOf(sources.answers);
  output.setTitle([definition.title, name].filter(Boolean).join(' – '));
  output.setSubject(definition.title);
  output.setCreator(definition.title);
  output.setProducer(definition.title);
  output.setCreationDate(now);
  output.setModificationDate(now);
  return output.save();
}
