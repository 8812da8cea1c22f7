/** Page work on the printed copy with pdf-lib: attaching the documents' pages, stamping the frames. */
import { PageSizes, PDFDocument } from 'pdf-lib';
import { PAGE_MARGIN_INCHES, renderPageFramesHtml } from '../../../renderers/print/render';
import type { ApplicationPdfContext } from './context';

const POINTS_PER_INCH = 72;

/**
 * Adds each page of an attached document as a Letter page of the copy: scaled down (never up) into
 * the same margins as the application's pages, so the header and footer stamped later sit clear.
 */
export async function attachPages(output: PDFDocument, source: PDFDocument): Promise<void> {
  const [width, height] = PageSizes.Letter;
  const marginX = PAGE_MARGIN_INCHES.horizontal * POINTS_PER_INCH;
  const marginY = PAGE_MARGIN_INCHES.vertical * POINTS_PER_INCH;
  const boxWidth = width - 2 * marginX;
  const boxHeight = height - 2 * marginY;
  const embedded = await output.embedPages(source.getPages());
  for (const page of embedded) {
    const scale = Math.min(1, boxWidth / page.width, boxHeight / page.height);
    const drawn = { width: page.width * scale, height: page.height * scale };
    output.addPage([width, height]).drawPage(page, {
      x: marginX + (boxWidth - drawn.width) / 2,
      y: height - marginY - drawn.height,
      ...drawn,
    });
  }
}

/**
 * Stamps the header (name, date) and "Page N of M" on every page, M counting the attached pages:
 * Chromium prints M transparent frame pages, and frame N is drawn over page N.
 */
export async function stampFrames(
  ctx: Pick<ApplicationPdfContext, 'printer'>,
  output: PDFDocument,
  frame: { applicantName: string; date: string },
): Promise<void> {
  const pages = output.getPages();
  const frames = await PDFDocument.load(
    await ctx.printer.htmlToPdf(renderPageFramesHtml({ ...frame, pageCount: pages.length })),
  );
  if (frames.getPageCount() !== pages.length)
    throw new Error(`page frames: ${frames.getPageCount()} printed for ${pages.length} pages`);
  const stamps = await output.embedPages(frames.getPages());
  pages.forEach((page, index) => {
    const stamp = stamps[index];
    if (stamp)
      page.drawPage(stamp, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  });
}
