/** Page work on the printed copy with pdf-lib: drawing the attached documents' pages. */
import type { PDFDocument } from 'pdf-lib';
import { ATTACHMENT_CAPTION_INCHES, PAGE_MARGIN_INCHES } from '#renderers/print/render.ts';

const POINTS_PER_INCH = 72;

/**
 * Draws each page of an attached document on the next framed empty page of the copy, from `first`:
 * scaled down (never up) into the same margins as the application's pages, so the header and
 * footer printed with the page sit clear; the first page below the caption that names the
 * document (D197). Answers the index after the last page drawn.
 */
export async function drawAttachedPages(
  output: PDFDocument,
  source: PDFDocument,
  first: number,
): Promise<number> {
  const marginX = PAGE_MARGIN_INCHES.horizontal * POINTS_PER_INCH;
  const marginY = PAGE_MARGIN_INCHES.vertical * POINTS_PER_INCH;
  const caption = ATTACHMENT_CAPTION_INCHES * POINTS_PER_INCH;
  const embedded = await output.embedPages(source.getPages());
  let index = first;
  for (const page of embedded) {
    const target = output.getPage(index);
    const { width, height } = target.getSize();
    const top = index === first ? marginY + caption : marginY;
    const boxWidth = width - 2 * marginX;
    const boxHeight = height - top - marginY;
    const scale = Math.min(1, boxWidth / page.width, boxHeight / page.height);
    const drawn = { width: page.width * scale, height: page.height * scale };
    target.drawPage(page, {
      x: marginX + (boxWidth - drawn.width) / 2,
      y: height - top - drawn.height,
      ...drawn,
    });
    index += 1;
  }
  // A document without pages still had its captioned page.
  return Math.max(index, first + 1);
}
