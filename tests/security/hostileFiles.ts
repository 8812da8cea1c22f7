/**
 * Hostile files for the upload, conversion and rendering cases of SECURITY.md section 7 (24–30), all
 * generated here (no binary fixtures): decodable JPEGs with metadata and trailers, PNG bombs and
 * polyglots, PDFs with active content built with pdf-lib's low-level API, zips for the docx attacks,
 * and scanners for the outputs (PDF names after inflating every stream, text of a PDF).
 */
import { once } from 'node:events';
import { createDeflate, inflateSync } from 'node:zlib';
import JSZip from 'jszip';
import { pdfPagesText } from '../fixtures/pdfText';
import { pngChunk } from '../server/documentFiles';
import type { PDFRef } from 'pdf-lib';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFString,
  StandardFonts,
} from 'pdf-lib';

// ---------------------------------------------------------------------------------------------- PNG

export { pngChunk };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** An IHDR chunk: colour 0 grey, 2 RGB, 6 RGBA. */
function ihdr(width: number, height: number, depth = 8, colour = 0): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = depth;
  header[9] = colour;
  return pngChunk('IHDR', header);
}

/** The zlib stream of `height` rows of `rowBytes` zero bytes (plus each row's filter byte), made
 * block by block so the raw image never sits in memory. */
async function zeroRows(rowBytes: number, height: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const rowsPerBlock = Math.max(1, Math.floor((1 << 22) / (rowBytes + 1)));
  const block = Buffer.alloc(rowsPerBlock * (rowBytes + 1));
  for (let done = 0; done < height; done += rowsPerBlock) {
    const rows = Math.min(rowsPerBlock, height - done);
    if (!deflate.write(block.subarray(0, rows * (rowBytes + 1)))) await once(deflate, 'drain');
  }
  deflate.end();
  await once(deflate, 'end');
  return Buffer.concat(parts);
}

const BYTES_PER_PIXEL: Record<number, number> = { 0: 1, 2: 3, 6: 4 };

/** A valid PNG of width × height black pixels (grey 8-bit unless told): small on disk, huge decoded. */
export async function blackPng(width: number, height: number, colour = 0, depth = 8) {
  const rowBytes = Math.ceil((width * (BYTES_PER_PIXEL[colour] ?? 1) * depth) / 8);
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(width, height, depth, colour),
    pngChunk('IDAT', await zeroRows(rowBytes, height)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * An animated PNG: a small default image, then `frames` frames of width × height declared by fcTL
 * chunks. Decoders that expand every frame (UPNG, inside pdf-lib) allocate frames × width × height × 4.
 */
export async function apngBomb(width: number, height: number, frames: number): Promise<Buffer> {
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(frames, 0);
  const frameData = await zeroRows(width, height);
  const chunks: Buffer[] = [PNG_SIGNATURE, ihdr(width, height), pngChunk('acTL', actl)];
  let sequence = 0;
  for (let i = 0; i < frames; i++) {
    const fctl = Buffer.alloc(26);
    fctl.writeUInt32BE(sequence++, 0);
    fctl.writeUInt32BE(width, 4);
    fctl.writeUInt32BE(height, 8);
    fctl.writeUInt16BE(1, 20); // delay 1/100 s
    fctl.writeUInt16BE(100, 22);
    chunks.push(pngChunk('fcTL', fctl));
    if (i === 0) chunks.push(pngChunk('IDAT', frameData));
    else {
      const seq = Buffer.alloc(4);
      seq.writeUInt32BE(sequence++);
      chunks.push(pngChunk('fdAT', Buffer.concat([seq, frameData])));
    }
  }
  chunks.push(pngChunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(chunks);
}

/** A text chunk (tEXt: keyword, NUL, text). */
export function textChunk(keyword: string, text: string): Buffer {
  return pngChunk('tEXt', Buffer.from(`${keyword}\0${text}`, 'latin1'));
}

/**
 * A PNG that is also a PDF to readers that look for `%PDF-` in the first 1024 bytes (SECURITY.md 3.2):
 * a private chunk placed so that `%PDF-1.7` starts at byte `offset`, carrying a catalog with an
 * OpenAction script, followed by the real image.
 */
export function pngPdfPolyglot(image: Buffer, offset = 200): Buffer {
  const head = image.subarray(0, 8 + 25); // signature and IHDR
  const rest = image.subarray(8 + 25);
  const before = offset - head.length - 8; // chunk length and type come first
  if (before < 0) throw new Error('offset too small');
  const pdf =
    '%PDF-1.7\n1 0 obj <</Type/Catalog/Pages 2 0 R/OpenAction 3 0 R>> endobj\n' +
    '2 0 obj <</Type/Pages/Kids[]/Count 0>> endobj\n' +
    "3 0 obj <</S/JavaScript/JS(app.alert('polyglot-payload'))>> endobj\n" +
    'trailer <</Root 1 0 R>>\n%%EOF\n';
  const data = Buffer.concat([Buffer.alloc(before, 0x20), Buffer.from(pdf, 'latin1')]);
  const polyglot = Buffer.concat([head, pngChunk('pdFx', data), rest]);
  if (polyglot.subarray(offset, offset + 8).toString('latin1') !== '%PDF-1.7')
    throw new Error('polyglot marker misplaced');
  return polyglot;
}

// --------------------------------------------------------------------------------------------- JPEG

export { jpegImage, type JpegOptions } from '../server/documentFiles';

function segment(marker: number, data: Uint8Array): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/** The maker name written into the EXIF block (found in an output = EXIF survived). */
export const EXIF_MAKER = 'CanaryCam-7b1e';
/** The GPS position's rationals as bytes (42°21'31.41" N, 71°3'27.18" W). */
export const GPS_RATIONALS = Buffer.from(
  [42, 1, 21, 1, 3141, 100, 71, 1, 3, 1, 2718, 100].flatMap((n) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return [...b];
  }),
);

/** An APP1 EXIF segment (little-endian TIFF) with a Make tag and a GPS IFD. */
export function exifGpsSegment(): Buffer {
  const tiff = Buffer.alloc(8 + 2 + 2 * 12 + 4 + 16 + 2 + 4 * 12 + 4 + GPS_RATIONALS.length);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  const makeAt = 8 + 2 + 2 * 12 + 4;
  const gpsAt = makeAt + 16;
  const rationalsAt = gpsAt + 2 + 4 * 12 + 4;
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(type, at + 2);
    tiff.writeUInt32LE(count, at + 4);
    tiff.writeUInt32LE(value, at + 8);
  };
  tiff.writeUInt16LE(2, 8);
  entry(10, 0x010f, 2, EXIF_MAKER.length + 1, makeAt); // Make
  entry(22, 0x8825, 4, 1, gpsAt); // GPSInfo
  tiff.write(`${EXIF_MAKER}\0`, makeAt, 'latin1');
  tiff.writeUInt16LE(4, gpsAt);
  entry(gpsAt + 2, 0x0001, 2, 2, 0x4e); // GPSLatitudeRef "N"
  entry(gpsAt + 14, 0x0002, 5, 3, rationalsAt); // GPSLatitude
  entry(gpsAt + 26, 0x0003, 2, 2, 0x57); // GPSLongitudeRef "W"
  entry(gpsAt + 38, 0x0004, 5, 3, rationalsAt + 24); // GPSLongitude
  GPS_RATIONALS.copy(tiff, rationalsAt);
  return segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]));
}

/** An APP1 XMP packet naming a position. */
export function xmpSegment(): Buffer {
  return segment(
    0xe1,
    Buffer.from(
      'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="42,21.5235N"/></rdf:RDF></x:xmpmeta>',
      'latin1',
    ),
  );
}

/** A comment segment. */
export function commentSegment(text: string): Buffer {
  return segment(0xfe, Buffer.from(text, 'latin1'));
}

// ---------------------------------------------------------------------------------------------- PDF

/** The names a converted PDF must not carry (SECURITY.md 7.27). */
export const ACTIVE_PDF_NAMES = [
  'JS',
  'JavaScript',
  'AA',
  'OpenAction',
  'Launch',
  'EmbeddedFile',
  'XFA',
] as const;

/**
 * The dangerous names found in a PDF's bytes: in the raw file and in every stream after inflating it
 * (object streams and content streams included), with `#xx` escapes in names decoded. A name counts
 * when it ends at a delimiter (`/JSON` is not `/JS`).
 */
export function activeNamesIn(bytes: Uint8Array, names: readonly string[] = ACTIVE_PDF_NAMES) {
  const found = new Set<string>();
  for (const part of pdfTexts(bytes)) {
    const decoded = part.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
    for (const name of names)
      if (new RegExp(`/${name}(?![^\\s/<>\\[\\]()%{}])`).test(decoded)) found.add(name);
  }
  return [...found];
}

/** A PDF's raw bytes and every one of its streams inflated (where it is deflated), as latin1 text. */
export function pdfTexts(bytes: Uint8Array): string[] {
  const raw = Buffer.from(bytes);
  const text = raw.toString('latin1');
  const texts = [text];
  const streamStart = /stream\r?\n/g;
  for (let match = streamStart.exec(text); match; match = streamStart.exec(text)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    try {
      texts.push(inflateSync(raw.subarray(start, end)).toString('latin1'));
    } catch {
      // not a Flate stream (an image, or raw content): its raw bytes are in `text` already
    }
  }
  return texts;
}

/** A one-page Letter PDF with a line of text, to be made hostile. */
export async function plainPdf(text = 'Transcript of records') {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const page = document.addPage([612, 792]);
  page.drawText(text, { x: 72, y: 700, size: 14, font });
  return { document, page, context: document.context };
}

type Plain = Awaited<ReturnType<typeof plainPdf>>;

const jsAction = ({ context }: Plain, script = 'app.alert(1)'): PDFRef =>
  context.register(context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of(script) }));

const annotations = ({ page, context }: Plain, ...annotations: PDFRef[]) =>
  page.node.set(PDFName.of('Annots'), context.obj(annotations));

/** A file specification with an embedded file (an .exe's first bytes). */
function embeddedFile({ context }: Plain): PDFRef {
  const file = context.register(
    context.flateStream('MZ\x90\x00embedded-payload', { Type: 'EmbeddedFile' }),
  );
  return context.register(
    context.obj({ Type: 'Filespec', F: PDFString.of('setup.exe'), EF: { F: file } }),
  );
}

/**
 * PDFs carrying each kind of active content of SECURITY.md 3.3 / 7.27, built with pdf-lib's
 * low-level API. Saved with object streams (pdf-lib's default) unless the name says otherwise.
 */
export const activePdfs: Record<string, () => Promise<Uint8Array>> = {
  'an /OpenAction JavaScript action': async () => {
    const pdf = await plainPdf();
    pdf.document.catalog.set(PDFName.of('OpenAction'), jsAction(pdf));
    return pdf.document.save();
  },
  'a page /AA (open and close) script': async () => {
    const pdf = await plainPdf();
    pdf.page.node.set(PDFName.of('AA'), pdf.context.obj({ O: jsAction(pdf), C: jsAction(pdf) }));
    return pdf.document.save();
  },
  'a Link annotation with /S /JavaScript': async () => {
    const pdf = await plainPdf();
    annotations(
      pdf,
      pdf.context.register(
        pdf.context.obj({
          Type: 'Annot',
          Subtype: 'Link',
          Rect: [72, 690, 300, 720],
          A: jsAction(pdf),
        }),
      ),
    );
    return pdf.document.save();
  },
  'a /Launch action (catalog and link)': async () => {
    const pdf = await plainPdf();
    const launch = pdf.context.register(
      pdf.context.obj({
        S: 'Launch',
        F: PDFString.of('cmd.exe'),
        Win: { F: PDFString.of('cmd.exe') },
      }),
    );
    pdf.document.catalog.set(PDFName.of('OpenAction'), launch);
    annotations(
      pdf,
      pdf.context.register(
        pdf.context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 0, 100, 100], A: launch }),
      ),
    );
    return pdf.document.save();
  },
  'an /EmbeddedFile (names tree and file attachment)': async () => {
    const pdf = await plainPdf();
    const spec = embeddedFile(pdf);
    pdf.document.catalog.set(
      PDFName.of('Names'),
      pdf.context.obj({ EmbeddedFiles: { Names: [PDFString.of('setup.exe'), spec] } }),
    );
    annotations(
      pdf,
      pdf.context.register(
        pdf.context.obj({
          Type: 'Annot',
          Subtype: 'FileAttachment',
          Rect: [0, 0, 20, 20],
          FS: spec,
        }),
      ),
    );
    return pdf.document.save();
  },
  'an /XFA form with a script': async () => {
    const pdf = await plainPdf();
    const xfa = pdf.context.register(
      pdf.context.flateStream(
        '<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><template><script contentType="application/x-javascript">app.alert(1)</script></template></xdp:xdp>',
      ),
    );
    pdf.document.catalog.set(
      PDFName.of('AcroForm'),
      pdf.context.obj({ Fields: [], XFA: [PDFString.of('template'), xfa] }),
    );
    return pdf.document.save();
  },
  // Beyond the list: active content reachable from the page through keys a page-level delete misses.
  'a script under an unknown page key (/PieceInfo) and a page /Metadata': async () => {
    const pdf = await plainPdf();
    pdf.page.node.set(
      PDFName.of('PieceInfo'),
      pdf.context.obj({ App: { Private: jsAction(pdf) } }),
    );
    pdf.page.node.set(
      PDFName.of('Metadata'),
      pdf.context.register(
        pdf.context.stream('<x:xmpmeta>/JavaScript</x:xmpmeta>', {
          Type: 'Metadata',
          Subtype: 'XML',
        }),
      ),
    );
    return pdf.document.save();
  },
  'actions hidden inside the page resources': async () => {
    const pdf = await plainPdf();
    const resources = pdf.page.node.Resources() as PDFDict;
    resources.set(
      PDFName.of('Extra'),
      pdf.context.obj({
        A: jsAction(pdf),
        L: { S: 'Launch', F: PDFString.of('cmd.exe') },
        F: embeddedFile(pdf),
      }),
    );
    return pdf.document.save();
  },
  'an /AA on the page tree node (inherited attributes are copied)': async () => {
    const pdf = await plainPdf();
    (pdf.document.catalog.Pages() as PDFDict).set(
      PDFName.of('AA'),
      pdf.context.obj({ O: jsAction(pdf) }),
    );
    return pdf.document.save();
  },
  'names written with #xx escapes (/J#53, /J#61vaScript), no object streams': async () => {
    const pdf = await plainPdf();
    pdf.document.catalog.set(PDFName.of('OpenAction'), jsAction(pdf));
    annotations(
      pdf,
      pdf.context.register(
        pdf.context.obj({
          Type: 'Annot',
          Subtype: 'Link',
          Rect: [0, 0, 100, 100],
          A: jsAction(pdf),
        }),
      ),
    );
    const bytes = Buffer.from(await pdf.document.save({ useObjectStreams: false })).toString(
      'latin1',
    );
    return Buffer.from(
      bytes.replaceAll('/JavaScript', '/J#61vaScript').replaceAll('/JS ', '/J#53 '),
      'latin1',
    );
  },
};

/** Every indirect object's dictionary of a PDF, as pdf-lib parses it (for structural checks). */
export async function pdfDictionaries(bytes: Uint8Array): Promise<PDFDict[]> {
  const document = await PDFDocument.load(bytes, { updateMetadata: false });
  return document.context
    .enumerateIndirectObjects()
    .flatMap(([, object]) =>
      object instanceof PDFDict ? [object] : object instanceof PDFRawStream ? [object.dict] : [],
    );
}

/** The raw image streams of a PDF (an embedded JPEG's bytes, as DCTDecode keeps them). */
export async function pdfImageStreams(
  bytes: Uint8Array,
): Promise<{ filter: string; bytes: Buffer }[]> {
  const document = await PDFDocument.load(bytes, { updateMetadata: false });
  const images: { filter: string; bytes: Buffer }[] = [];
  for (const [, object] of document.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    if (object.dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
    const filter = object.dict.get(PDFName.of('Filter'));
    const name =
      filter instanceof PDFName ? filter.asString() : filter instanceof PDFArray ? 'array' : '';
    images.push({ filter: name, bytes: Buffer.from(object.contents) });
  }
  return images;
}

// --------------------------------------------------------------------------------------------- DOCX

export const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
export const HYPERLINK_TYPE = `${R}/hyperlink`;
export const IMAGE_TYPE = `${R}/image`;

/** XML text escaped for an element or attribute. */
export function xmlText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A paragraph of plain runs. */
export function paragraph(text: string): string {
  return `<w:p><w:r><w:t xml:space="preserve">${xmlText(text)}</w:t></w:r></w:p>`;
}

/** A paragraph holding a hyperlink through relationship `id`. */
export function hyperlinkParagraph(id: string, text: string): string {
  return `<w:p><w:hyperlink r:id="${id}"><w:r><w:t>${xmlText(text)}</w:t></w:r></w:hyperlink></w:p>`;
}

/** A paragraph holding an image whose blip points at relationship `id` (`r:embed` or `r:link`). */
export function imageParagraph(id: string, how: 'embed' | 'link'): string {
  return `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="952500" cy="952500"/><wp:docPr id="1" name="Picture 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="1" name="image.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:${how}="${id}"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
}

export function documentXml(body: string, prolog = ''): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${prolog}<w:document xmlns:w="${W}" xmlns:r="${R}"><w:body>${body}</w:body></w:document>`;
}

export function relationships(...items: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${RELS}">${items.join('')}</Relationships>`;
}

export function relationship(id: string, type: string, target: string, external = false): string {
  return `<Relationship Id="${id}" Type="${type}" Target="${xmlText(target)}"${external ? ' TargetMode="External"' : ''}/>`;
}

export interface DocxParts {
  /** word/document.xml; absent = no document part. */
  readonly document?: string | Uint8Array | undefined;
  readonly documentRels?: string;
  /** Further entries: name → content (or options for symlinks). */
  readonly extra?: Record<string, string | Uint8Array | { symlinkTo: string }>;
}

/** A docx zip (JSZip, deflated) from its parts. */
export function docxZip(parts: DocxParts): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', CONTENT_TYPES);
  zip.file('_rels/.rels', ROOT_RELS);
  if (parts.document !== undefined) zip.file('word/document.xml', parts.document);
  if (parts.documentRels) zip.file('word/_rels/document.xml.rels', parts.documentRels);
  for (const [name, content] of Object.entries(parts.extra ?? {})) {
    if (typeof content === 'object' && 'symlinkTo' in content)
      zip.file(name, content.symlinkTo, { unixPermissions: 0o120777, createFolders: false });
    else zip.file(name, content, { createFolders: false });
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', platform: 'UNIX' });
}

/** A docx of a few paragraphs. */
export function docxOf(...paragraphs: string[]): Promise<Buffer> {
  return docxZip({ document: documentXml(paragraphs.map(paragraph).join('')) });
}

/** A docx whose document.xml carries `padding` spaces: a few kB packed, `padding` bytes unpacked. */
export function docxBomb(padding: number): Promise<Buffer> {
  return docxZip({ document: documentXml(`${' '.repeat(padding)}${paragraph('Bomb')}`) });
}

/** The text of every page of a PDF, with pdfjs-dist (no rendering). */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  return (await pdfPagesText(bytes)).join('\n');
}
