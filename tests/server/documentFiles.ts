/**
 * Sample files for the document tests and the conversion benchmark, generated with code: PNG (a tiny
 * encoder over zlib), JPEG (a tiny baseline encoder: DC-only blocks, decodable anywhere), PDF (pdf-lib),
 * DOCX (a zip written with JSZip) and a few hostile variants.
 */
import { deflateSync } from 'node:zlib';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
/** One PNG chunk: length, type, data, CRC. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGB PNG of a gradient, width × height. */
export function png(width = 64, height = 48): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      row[1 + x * 3] = (x * 255) / Math.max(1, width - 1);
      row[2 + x * 3] = (y * 255) / Math.max(1, height - 1);
      row[3 + x * 3] = 128;
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Canonical Huffman codes of a table given as BITS (counts per length 1..16) and values. */
function huffmanCodes(bits: number[], values: number[]): Map<number, [number, number]> {
  const codes = new Map<number, [number, number]>();
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    for (let i = 0; i < (bits[length - 1] ?? 0); i++)
      codes.set(values[k++] as number, [code++, length]);
    code <<= 1;
  }
  return codes;
}

function segment(marker: number, data: Uint8Array): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

const DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

export interface JpegOptions {
  /** Extra segments after JFIF (APP1 EXIF, XMP, COM…). */
  readonly segments?: readonly Buffer[];
  /** Bytes after the end-of-image marker (a JPEG+HTML polyglot). */
  readonly trailer?: Buffer;
}

/**
 * A real baseline greyscale JPEG (any decoder shows a diagonal gradient): 8×8 blocks carrying only
 * their DC value, the standard DC Huffman table and an AC table holding just end-of-block.
 */
export function jpegImage(width: number, height: number, options: JpegOptions = {}): Buffer {
  const jfif = Buffer.from([0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const dqt = Buffer.concat([Buffer.from([0x00]), Buffer.alloc(64, 8)]);
  const sof = Buffer.from([8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]);
  const dhtDc = Buffer.from([0x00, ...DC_BITS, ...DC_VALUES]);
  const dhtAc = Buffer.from([0x10, 1, ...new Array<number>(15).fill(0), 0x00]);
  const sos = Buffer.from([1, 1, 0x00, 0, 63, 0]);

  const dc = huffmanCodes(DC_BITS, DC_VALUES);
  const out: number[] = [];
  let accumulator = 0;
  let count = 0;
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) {
      accumulator = (accumulator << 1) | ((value >> i) & 1);
      if (++count === 8) {
        out.push(accumulator);
        if (accumulator === 0xff) out.push(0x00);
        accumulator = 0;
        count = 0;
      }
    }
  };
  const across = Math.ceil(width / 8);
  const down = Math.ceil(height / 8);
  let previous = 0;
  for (let by = 0; by < down; by++)
    for (let bx = 0; bx < across; bx++) {
      const value = 40 + Math.floor((200 * (bx + by)) / Math.max(1, across + down - 2)) - 128;
      const diff = value - previous;
      previous = value;
      const magnitude = Math.abs(diff);
      const category = magnitude === 0 ? 0 : Math.floor(Math.log2(magnitude)) + 1;
      const [code, length] = dc.get(category) as [number, number];
      put(code, length);
      if (category > 0) put(diff > 0 ? diff : diff + (1 << category) - 1, category);
      put(0, 1); // end of block
    }
  if (count > 0) put(0xff, 8 - count); // pad with ones

  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, jfif),
    ...(options.segments ?? []),
    segment(0xdb, dqt),
    segment(0xc0, sof),
    segment(0xc4, dhtDc),
    segment(0xc4, dhtAc),
    segment(0xda, sos),
    Buffer.from(out),
    Buffer.from([0xff, 0xd9]),
    options.trailer ?? Buffer.alloc(0),
  ]);
}

/** A real baseline JPEG of width × height (a grey gradient), as an upload would be. */
export function jpeg(width = 64, height = 48): Buffer {
  return jpegImage(width, height);
}

export async function pdf(text = 'Unofficial transcript', pages = 1): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++)
    document.addPage([612, 792]).drawText(`${text} ${i + 1}`, { x: 72, y: 700, size: 14, font });
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

/** A PDF whose trailer names an encryption dictionary. */
export async function encryptedPdf(): Promise<Buffer> {
  const text = (await pdf()).toString('latin1');
  return Buffer.from(
    text.replace(
      /trailer\s*<</,
      'trailer\n<<\n/Encrypt << /Filter /Standard /V 1 /R 2 /O (aaaa) /U (bbbb) /P -4 >>',
    ),
    'latin1',
  );
}

/** A PDF with an OpenAction script and a page additional-action script. */
export async function activePdf(): Promise<Buffer> {
  const document = await PDFDocument.create();
  const page = document.addPage([612, 792]);
  const script = document.context.obj({ S: 'JavaScript', JS: 'app.alert(1)' });
  const scriptRef = document.context.register(script);
  document.catalog.set((await import('pdf-lib')).PDFName.of('OpenAction'), scriptRef);
  page.node.set((await import('pdf-lib')).PDFName.of('AA'), document.context.obj({ O: scriptRef }));
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

function documentXml(paragraphs: string[]): string {
  const body = paragraphs
    .map((p) => `<w:p><w:r><w:t xml:space="preserve">${p}</w:t></w:r></w:p>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>${body}</w:body></w:document>`;
}

export async function docx(
  paragraphs: string[] = ['Personal statement', 'I would like to study physics.'],
  options: { documentRels?: string; padding?: number } = {},
): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', CONTENT_TYPES);
  zip.file('_rels/.rels', ROOT_RELS);
  let xml = documentXml(paragraphs);
  if (options.padding) xml = xml.replace('<w:body>', `<w:body>${' '.repeat(options.padding)}`);
  zip.file('word/document.xml', xml);
  if (options.documentRels) zip.file('word/_rels/document.xml.rels', options.documentRels);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A docx whose image is linked from outside the package (CVE-2025-11849's shape). */
export function externalImageDocx(): Promise<Buffer> {
  return docx(['Linked image'], {
    documentRels: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="file:///etc/passwd" TargetMode="External"/></Relationships>`,
  });
}

/** A small docx that unpacks past 20 MB. */
export function docxBomb(): Promise<Buffer> {
  return docx(['Bomb'], { padding: 21 * 1024 * 1024 });
}

/** Windows PE bytes ("MZ" header). */
export function exe(): Buffer {
  const bytes = Buffer.alloc(512);
  bytes.write('MZ', 0, 'latin1');
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.write('PE\0\0', 0x80, 'latin1');
  return bytes;
}
