/**
 * Converts an upload to PDF by its content, never by its name (SECURITY.md 3.2–3.4): the type is
 * sniffed from the bytes with `file-type` and must match the file name's extension; png and jpeg are
 * placed on a Letter page; a pdf is rebuilt page by page without its active content; a docx becomes
 * HTML with mammoth and is printed by headless Chromium. Every refusal carries the applicant's message.
 */
import { fileTypeFromBuffer } from 'file-type';
import { PDFDocument } from 'pdf-lib';
import { documentMessages } from '../../contract';
import type { ChromiumPrinter } from '../pdf/chromium';
import { docxBodyHtml, inspectDocx } from './docx';
import { checkImageHeader, checkPng, cleanJpeg } from './images';
import { rebuildPdf } from './pdf';

export { MAX_IMAGE_PIXELS } from './images';
export const CONVERSION_TIMEOUT_MS = 30_000;
/** US Letter in PDF points. */
const LETTER = { width: 612, height: 792, margin: 36 } as const;

export type Sniffed = 'png' | 'jpg' | 'pdf' | 'docx';
export type ConversionResult =
  { ok: true; pdf: Uint8Array; type: Sniffed } | { ok: false; message: string };

const EXTENSION_TYPE: Record<string, Sniffed> = {
  png: 'png',
  jpg: 'jpg',
  jpeg: 'jpg',
  pdf: 'pdf',
  docx: 'docx',
};

const extensionOf = (fileName: string) => fileName.toLowerCase().split('.').pop() ?? '';

/**
 * Whether a file of this name is printed by Chromium once its content is checked (a docx): its
 * conversion takes seconds and runs in the worker's print lane (D136). The content must match the
 * name, so a file named otherwise is refused before anything is printed.
 */
export function printedByChromium(fileName: string): boolean {
  return EXTENSION_TYPE[extensionOf(fileName)] === 'docx';
}

/** The type of the bytes when it is allowed and matches the name's extension, else null. */
export async function sniff(bytes: Uint8Array, fileName: string): Promise<Sniffed | null> {
  const detected = await fileTypeFromBuffer(bytes);
  const type = detected ? EXTENSION_TYPE[detected.ext] : undefined;
  if (!type || EXTENSION_TYPE[extensionOf(fileName)] !== type) return null;
  // file-type accepts a %PDF- marker anywhere in the first bytes; require it at offset 0.
  if (type === 'pdf' && Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-')
    return null;
  return type;
}

/**
 * An image on a Letter page. The size comes from the header before anything is decoded; a PNG's
 * chunks are checked, then it is decoded and written anew by pdf-lib; a JPEG is embedded as it is by
 * pdf-lib, so it is first cut down to the segments decoding needs (no EXIF, XMP or comments, nothing
 * after its end).
 */
async function imageToPdf(bytes: Uint8Array, type: 'png' | 'jpg'): Promise<ConversionResult> {
  const header = checkImageHeader(bytes);
  if (!header.ok)
    return {
      ok: false,
      message:
        header.reason === 'tooLarge'
          ? documentMessages.imageTooLarge
          : documentMessages.imageBroken,
    };
  if (type === 'png') {
    const structure = checkPng(bytes);
    if (structure !== 'ok')
      return {
        ok: false,
        message:
          structure === 'animated'
            ? documentMessages.contentMismatch
            : documentMessages.imageBroken,
      };
  }
  const embedded = type === 'jpg' ? cleanJpeg(bytes) : bytes;
  if (!embedded) return { ok: false, message: documentMessages.imageBroken };
  const document = await PDFDocument.create({ updateMetadata: false });
  let image;
  try {
    image = type === 'png' ? await document.embedPng(embedded) : await document.embedJpg(embedded);
  } catch {
    return { ok: false, message: documentMessages.imageBroken };
  }
  const page = document.addPage([LETTER.width, LETTER.height]);
  const box = {
    width: LETTER.width - 2 * LETTER.margin,
    height: LETTER.height - 2 * LETTER.margin,
  };
  const scale = Math.min(1, box.width / image.width, box.height / image.height);
  const drawn = { width: image.width * scale, height: image.height * scale };
  page.drawImage(image, {
    x: (LETTER.width - drawn.width) / 2,
    y: LETTER.height - LETTER.margin - drawn.height,
    ...drawn,
  });
  return { ok: true, pdf: await document.save({ useObjectStreams: false }), type };
}

async function pdfToPdf(bytes: Uint8Array): Promise<ConversionResult> {
  const rebuilt = await rebuildPdf(bytes);
  if (rebuilt.ok) return { ok: true, pdf: rebuilt.pdf, type: 'pdf' };
  return {
    ok: false,
    message:
      rebuilt.reason === 'encrypted' ? documentMessages.pdfEncrypted : documentMessages.pdfBroken,
  };
}

const DOCX_PAGE = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"><style>body{font:11pt/1.4 serif;}img{max-width:100%;}table{border-collapse:collapse;}td,th{border:1px solid #999;padding:2pt;}</style></head><body>${body}</body></html>`;

/** The docx as HTML to print, or why it is refused (mammoth runs here, in the sandbox). */
async function docxToHtml(bytes: Uint8Array): Promise<ContentResult> {
  const buffer = Buffer.from(bytes);
  const verdict = await inspectDocx(buffer);
  if (!verdict.ok)
    return {
      ok: false,
      message:
        verdict.reason === 'tooLarge'
          ? documentMessages.docxTooLarge
          : verdict.reason === 'external'
            ? documentMessages.docxExternal
            : documentMessages.docxBroken,
    };
  const body = await docxBodyHtml(buffer);
  if (!body.ok)
    return {
      ok: false,
      message:
        body.reason === 'images'
          ? documentMessages.docxImagesTooLarge
          : documentMessages.docxBroken,
    };
  return { ok: true, html: DOCX_PAGE(body.html), type: 'docx' };
}

/** What the CPU-bound part gives back: a PDF, HTML still to print (docx), or a refusal. */
export type ContentResult = ConversionResult | { ok: true; html: string; type: 'docx' };

/**
 * The CPU-bound part of a conversion, without Chromium: sniffing, images, PDFs, and docx to HTML. The
 * server runs it in a worker thread with a heap limit (server/conversion/sandbox.ts).
 */
export async function convertContent(input: Uint8Array, fileName: string): Promise<ContentResult> {
  // A copy at offset 0 of its own buffer: pdf-lib's JPEG reader ignores a view's byteOffset, and
  // small Node buffers are views into a shared pool.
  const bytes = new Uint8Array(input);
  if (bytes.length === 0) return { ok: false, message: documentMessages.empty };
  const type = await sniff(bytes, fileName);
  if (!type) return { ok: false, message: documentMessages.contentMismatch };
  if (type === 'png' || type === 'jpg') return imageToPdf(bytes, type);
  if (type === 'pdf') return pdfToPdf(bytes);
  return docxToHtml(bytes);
}

/** Runs `convertContent` somewhere (in process, or in the sandbox worker). */
export type ContentRunner = (
  bytes: Uint8Array,
  fileName: string,
  timeoutMs: number,
) => Promise<ContentResult>;

const inProcess: ContentRunner = (bytes, fileName) => convertContent(bytes, fileName);

/**
 * Converts with the 30 s limit over both parts; an infrastructure failure (Chromium, a worker that
 * died) throws, and the job is retried.
 */
export async function convertToPdf(
  bytes: Uint8Array,
  fileName: string,
  printer: ChromiumPrinter,
  options: { timeoutMs?: number; runner?: ContentRunner } = {},
): Promise<ConversionResult> {
  const timeoutMs = options.timeoutMs ?? CONVERSION_TIMEOUT_MS;
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ConversionResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, message: documentMessages.timedOut }), timeoutMs);
  });
  const work = (async (): Promise<ConversionResult> => {
    const content = await (options.runner ?? inProcess)(bytes, fileName, timeoutMs);
    if (!content.ok || !('html' in content)) return content;
    const left = timeoutMs - (Date.now() - started);
    if (left <= 0) return { ok: false, message: documentMessages.timedOut };
    return { ok: true, pdf: await printer.htmlToPdf(content.html, left), type: 'docx' };
  })();
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
