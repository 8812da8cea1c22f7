/**
 * Sample files for the document tests and the conversion benchmark, generated with code: PNG (a tiny
 * encoder over zlib), JPEG (headers only: enough for sniffing, sizing and embedding), PDF (pdf-lib),
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
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
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
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A baseline JPEG's headers (SOI, JFIF, SOF0, EOI) declaring width × height. */
export function jpeg(width = 64, height = 48): Buffer {
  const app0 = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
    0x00, 0x00,
  ]);
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
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
