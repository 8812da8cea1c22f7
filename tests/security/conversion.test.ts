/**
 * SECURITY.md section 7, conversion: 7.27 PDF active content, 7.28 DOCX attacks, 7.29 image bombs.
 * Files go through the conversion sandbox (the worker thread the server uses) and, for docx, the
 * Chromium printer, as in production; a few checks call one layer alone to show it holds by itself.
 *
 * Proven elsewhere and not repeated here (tests/server/documents.test.ts › "conversion ends FAILED…"):
 * an encrypted PDF (/Encrypt in the trailer) → refused, a broken PDF → refused, a JPEG over 40 MP →
 * refused, a docx past 20 MB → refused, a docx with an external image → refused; (documents.queue.test.ts
 * › "converts in the worker, and a conversion past its limit ends timed out and replaces the worker").
 */
import { readFileSync } from 'node:fs';
import mammoth from 'mammoth';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentMessages } from '../../contract';
import { convertContent, convertToPdf } from '../../server/conversion/convert';
import { docxBodyHtml } from '../../server/conversion/docx';
import { ConversionSandbox } from '../../server/conversion/sandbox';
import { ChromiumPrinter } from '../../server/pdf/chromium';
import {
  activeNamesIn,
  activePdfs,
  apngBomb,
  blackPng,
  commentSegment,
  docxBomb,
  docxZip,
  documentXml,
  EXIF_MAKER,
  exifGpsSegment,
  GPS_RATIONALS,
  HYPERLINK_TYPE,
  hyperlinkParagraph,
  IMAGE_TYPE,
  imageParagraph,
  jpegImage,
  paragraph,
  pdfImageStreams,
  pdfText,
  pdfTexts,
  relationship,
  relationships,
  xmpSegment,
} from './hostileFiles';

const sandbox = new ConversionSandbox();
const printer = new ChromiumPrinter();
afterAll(async () => {
  await sandbox.close();
  await printer.close();
});

/** Converts as the job does: the sandbox for the CPU-bound part, Chromium for docx. */
const convert = (bytes: Uint8Array, name: string, timeoutMs?: number) =>
  convertToPdf(bytes, name, printer, {
    runner: sandbox.run,
    ...(timeoutMs ? { timeoutMs } : {}),
  });

async function pdfOf(bytes: Uint8Array, name: string): Promise<Buffer> {
  const result = await convert(bytes, name);
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return Buffer.from(result.pdf);
}

/** The first 30 bytes of the host's /etc/passwd, raw and as base64 (as a data URI would carry it). */
const PASSWD = readFileSync('/etc/passwd');
const PASSWD_MARKERS = [
  PASSWD.subarray(0, 30).toString('latin1'),
  PASSWD.subarray(0, 30).toString('base64'),
];
const hasPasswd = (text: string | Buffer) => PASSWD_MARKERS.some((marker) => text.includes(marker));

beforeAll(async () => {
  // Warm the worker and the browser so timings and memory below measure the files, not start-up.
  await pdfOf(jpegImage(16, 16), 'warm.jpg');
  await pdfOf(await docxZip({ document: documentXml(paragraph('warm')) }), 'warm.docx');
}, 60_000);

describe('7.27 PDF active content', () => {
  it('7.27 the scan sees names inside compressed object streams and #xx escapes (it can find what it looks for)', async () => {
    const input = await activePdfs['an /OpenAction JavaScript action']!();
    // pdf-lib's default save puts the catalog in a compressed object stream.
    expect(Buffer.from(input).toString('latin1')).not.toContain('/OpenAction');
    expect(activeNamesIn(input)).toEqual(
      expect.arrayContaining(['OpenAction', 'JS', 'JavaScript']),
    );
    expect(activeNamesIn(Buffer.from('<< /J#61vaScript 1 0 R >>'))).toEqual(['JavaScript']);
    expect(activeNamesIn(Buffer.from('<< /JSON 1 /AAB 2 >>'))).toEqual([]);
  });

  it.each(Object.entries(activePdfs))(
    '7.27 %s → 0 of /JS /JavaScript /AA /OpenAction /Launch /EmbeddedFile /XFA in the output',
    async (_label, make) => {
      const input = await make();
      expect(activeNamesIn(input).length).toBeGreaterThan(0);
      const output = await pdfOf(input, 'transcript.pdf');
      expect(activeNamesIn(output)).toEqual([]);
      expect(output.includes('app.alert')).toBe(false);
      expect(output.includes('embedded-payload')).toBe(false);
      // The page itself survives.
      expect((await PDFDocument.load(output)).getPageCount()).toBe(1);
      expect(await pdfText(output)).toContain('Transcript of records');
    },
  );

  it('7.27 an encrypted PDF whose /Encrypt sits in a cross-reference stream is refused', async () => {
    const document = await PDFDocument.create();
    document
      .addPage()
      .drawText('secret', { font: await document.embedFont(StandardFonts.Helvetica) });
    const text = Buffer.from(await document.save()).toString('latin1');
    expect(text).toContain('/Type /XRef');
    const encrypted = Buffer.from(
      text.replace(
        '/Type /XRef',
        '/Type /XRef /Encrypt << /Filter /Standard /V 1 /R 2 /O (aaaa) /U (bbbb) /P -4 >>',
      ),
      'latin1',
    );
    expect(await convert(encrypted, 'locked.pdf')).toEqual({
      ok: false,
      message: documentMessages.pdfEncrypted,
    });
  });

  it('7.27 malformed PDFs are refused, and one that parses too slowly is stopped at the time limit', async () => {
    const valid = Buffer.from(await (await PDFDocument.create()).save());
    const malformed: Record<string, Buffer> = {
      truncated: valid.subarray(0, 200),
      'nested 100,000 deep': Buffer.from(`%PDF-1.7\n1 0 obj\n${'['.repeat(100_000)}\nendobj\n`),
      'a page tree that is its own kid': Buffer.from(
        '%PDF-1.7\n1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n2 0 obj <</Type/Pages/Kids[2 0 R]/Count 1>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF',
      ),
      'garbage after the header': Buffer.concat([
        Buffer.from('%PDF-1.7\n'),
        Buffer.alloc(50_000, 0x41),
      ]),
    };
    for (const [label, bytes] of Object.entries(malformed)) {
      const started = Date.now();
      const result = await convert(bytes, 'broken.pdf');
      expect(result, label).toEqual({ ok: false, message: documentMessages.pdfBroken });
      expect(Date.now() - started, label).toBeLessThan(10_000);
    }
    // 1 MB of garbage keeps pdf-lib's recovering parser busy for seconds: the limit ends it (here
    // 1 s instead of 30 s), the worker is replaced and the next file converts.
    const started = Date.now();
    const slow = await convert(
      Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(1_000_000, 0x41)]),
      'slow.pdf',
      1000,
    );
    expect(slow).toEqual({ ok: false, message: documentMessages.timedOut });
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await convert(valid, 'after.pdf')).ok).toBe(true);
  });
});

describe('7.28 DOCX attacks', () => {
  const document = documentXml(paragraph('Personal statement'));

  it('7.28 a 66 KB docx that unpacks to 64 MiB is refused before mammoth', async () => {
    const bomb = await docxBomb(64 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(100 * 1024);
    const spy = vi.spyOn(mammoth, 'convertToHtml');
    try {
      expect(await convertContent(bomb, 'bomb.docx')).toEqual({
        ok: false,
        message: documentMessages.docxTooLarge,
      });
      expect(spy).not.toHaveBeenCalled();
      // The spy would see a call: a small docx reaches mammoth.
      await convertContent(await docxZip({ document }), 'small.docx');
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
    // And in the sandbox.
    expect(await convert(bomb, 'bomb.docx')).toEqual({
      ok: false,
      message: documentMessages.docxTooLarge,
    });
  });

  it.each([
    ['../evil.xml', 'climbs out with ../'],
    ['word/../../evil.xml', 'climbs out from inside'],
    ['/etc/cron.d/evil', 'is absolute'],
    ['C:/Windows/evil.xml', 'has a drive letter'],
    ['word\\..\\..\\evil.xml', 'uses backslashes'],
  ])('7.28 an entry named %j (%s) is refused', async (name) => {
    const bytes = await docxZip({ document, extra: { [name]: '<x/>' } });
    expect(await convert(bytes, 'essay.docx')).toEqual({
      ok: false,
      message: documentMessages.docxBroken,
    });
  });

  it.each([
    ['a media file', 'word/media/image1.png'],
    ['the document part itself', 'word/document.xml'],
  ])('7.28 a symbolic link as %s (to /etc/passwd) is refused', async (_label, name) => {
    const bytes = await docxZip({
      document: name === 'word/document.xml' ? undefined : document,
      extra: { [name]: { symlinkTo: '/etc/passwd' } },
    });
    const result = await convert(bytes, 'essay.docx');
    expect(result).toEqual({ ok: false, message: documentMessages.docxBroken });
  });

  const xxe = () =>
    docxZip({
      document: documentXml(
        `${paragraph('Before')}<w:p><w:r><w:t>&xxe;</w:t></w:r></w:p>`,
        '<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
      ),
    });
  const laughs = () => {
    const entities = Array.from(
      { length: 9 },
      (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i ? i : ''};`.repeat(10)}">`,
    ).join('');
    return docxZip({
      document: documentXml(
        '<w:p><w:r><w:t>&lol9;</w:t></w:r></w:p>',
        `<!DOCTYPE w:document [<!ENTITY lol "lol">${entities}]>`,
      ),
    });
  };

  it.each([
    ['a DOCTYPE with an external entity (/etc/passwd)', xxe],
    ['a billion laughs', laughs],
    [
      'a DTD in UTF-16',
      async () =>
        docxZip({
          document: Buffer.from(
            `\ufeff<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><w:document/>`,
            'utf16le',
          ),
        }),
    ],
  ])(
    '7.28 %s → a clean refusal before mammoth, with no host file content',
    async (_label, make) => {
      const bytes = await make();
      const spy = vi.spyOn(mammoth, 'convertToHtml');
      try {
        expect(await convertContent(bytes, 'essay.docx')).toEqual({
          ok: false,
          message: documentMessages.docxBroken,
        });
        expect(spy).not.toHaveBeenCalled();
      } finally {
        spy.mockRestore();
      }
      const started = Date.now();
      const result = await convert(bytes, 'essay.docx');
      expect(result).toEqual({ ok: false, message: documentMessages.docxBroken });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(hasPasswd(JSON.stringify(result))).toBe(false);
    },
  );

  it('7.28 …and mammoth alone (behind the DTD check) also refuses the external entity', async () => {
    const result = await docxBodyHtml(await xxe());
    expect(result).toEqual({ ok: false, reason: 'broken' });
  });

  const linked = (rels: string) =>
    docxZip({
      document: documentXml(paragraph('Linked image') + imageParagraph('rId5', 'link')),
      documentRels: rels,
    });
  const TYPE = IMAGE_TYPE;

  it.each([
    ['spelled plainly', relationships(relationship('rId5', TYPE, 'file:///etc/passwd', true))],
    [
      'with TargetMode as a character reference',
      relationships(
        `<Relationship Id="rId5" Type="${TYPE}" Target="file:///etc/passwd" TargetMode="&#69;xternal"/>`,
      ),
    ],
    [
      'with a namespace prefix',
      `<?xml version="1.0"?><p:Relationships xmlns:p="http://schemas.openxmlformats.org/package/2006/relationships"><p:Relationship Id="rId5" Type="${TYPE}" Target="file:///etc/passwd" TargetMode="External"/></p:Relationships>`,
    ],
    [
      'behind a decoy attribute ending in Type',
      relationships(
        `<Relationship Id="rId5" xType="x/hyperlink" Type="${TYPE}" Target="file:///etc/passwd" TargetMode="External"/>`,
      ),
    ],
    [
      'with a > inside a value before TargetMode',
      relationships(
        `<Relationship Id="rId5" Type="${TYPE}" Target="file:///etc/passwd?a>b" TargetMode='External'/>`,
      ),
    ],
  ])('7.28 an r:link image to /etc/passwd %s is refused', async (_label, rels) => {
    expect(await convert(await linked(rels), 'essay.docx')).toEqual({
      ok: false,
      message: documentMessages.docxExternal,
    });
  });

  it('7.28 …and mammoth alone (behind the relationship check) reads no file', async () => {
    for (const target of ['file:///etc/passwd', '/etc/passwd', '../../../../../../etc/passwd']) {
      for (const external of [true, false]) {
        const bytes = await linked(relationships(relationship('rId5', TYPE, target, external)));
        const result = await docxBodyHtml(bytes);
        expect(result.ok).toBe(true);
        const html = result.ok ? result.html : '';
        expect(html).toContain('Linked image');
        expect(hasPasswd(html), `${target} ${external}`).toBe(false);
        expect(html).not.toContain('<img');
      }
    }
  });

  it('7.28 javascript: (and other non-web) hyperlinks are absent from the HTML and the PDF; https ones stay', async () => {
    const targets = [
      'javascript:alert(document.domain)',
      'JaVaScRiPt:alert(2)',
      ' javascript:alert(3)',
      'vbscript:msgbox(4)',
      'data:text/html,<script>alert(5)</script>',
      'data:image/svg+xml,<svg onload=alert(6)>',
      'file:///etc/passwd',
      '//evil.example/protocol-relative',
    ];
    const rels = relationships(
      ...targets.map((target, i) => relationship(`rId${i + 10}`, HYPERLINK_TYPE, target, true)),
      relationship('rId9', HYPERLINK_TYPE, 'https://northfield.edu/ok', true),
    );
    const body =
      targets.map((_, i) => hyperlinkParagraph(`rId${i + 10}`, `link ${i}`)).join('') +
      hyperlinkParagraph('rId9', 'safe link');
    const bytes = await docxZip({ document: documentXml(body), documentRels: rels });

    const content = await convertContent(bytes, 'links.docx');
    expect(content.ok && 'html' in content).toBe(true);
    const html = content.ok && 'html' in content ? content.html : '';
    for (const word of ['javascript:', 'vbscript:', 'data:text', 'svg', 'file:', 'evil.example'])
      expect(html.toLowerCase()).not.toContain(word);
    expect(html).toContain('href="https://northfield.edu/ok"');
    expect(html).toContain('link 0');

    const pdf = await pdfOf(bytes, 'links.docx');
    const pdfBytes = pdfTexts(pdf).join('\n').toLowerCase();
    for (const word of ['javascript:', 'vbscript:', 'data:text', 'file:', 'evil.example'])
      expect(pdfBytes).not.toContain(word);
    // The oracle would see a URI: the https link is in the PDF as a link annotation.
    expect(pdfBytes).toContain('https://northfield.edu/ok');
    expect(activeNamesIn(pdf)).toEqual([]);
    const text = await pdfText(pdf);
    expect(text).toContain('link 0');
    expect(text).toContain('safe link');
  });
});

describe('7.29 image bombs', () => {
  it('7.29 a small 14000×14000 PNG is refused at the header check with RSS growth < 100 MB', async () => {
    const bomb = await blackPng(14_000, 14_000);
    expect(bomb.length).toBeLessThan(1_048_576);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 2);
    const started = Date.now();
    const result = await convert(bomb, 'bomb.png');
    const elapsed = Date.now() - started;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(result).toEqual({ ok: false, message: documentMessages.imageTooLarge });
    const growthMb = (peak - before) / 1024 / 1024;
    console.info(
      `7.29 PNG bomb: ${bomb.length} bytes, refused in ${elapsed} ms, RSS +${growthMb.toFixed(1)} MB`,
    );
    expect(growthMb).toBeLessThan(100);
    expect(elapsed).toBeLessThan(1000);
  });

  it('7.29 the same bomb inside a docx is refused before Chromium sees it', async () => {
    const bomb = await blackPng(14_000, 14_000);
    const bytes = await docxZip({
      document: documentXml(paragraph('Image bomb') + imageParagraph('rId7', 'embed')),
      documentRels: relationships(relationship('rId7', IMAGE_TYPE, 'media/image1.png')),
      extra: { 'word/media/image1.png': bomb },
    });
    const htmlToPdf = vi.spyOn(printer, 'htmlToPdf');
    try {
      expect(await convert(bytes, 'essay.docx')).toEqual({
        ok: false,
        message: documentMessages.docxImagesTooLarge,
      });
      expect(htmlToPdf).not.toHaveBeenCalled();
    } finally {
      htmlToPdf.mockRestore();
    }
  });

  it('7.29 an animated PNG whose frames would expand past memory is refused', async () => {
    const apng = await apngBomb(4000, 4000, 50);
    expect(apng.length).toBeLessThan(1_048_576);
    expect(await convert(apng, 'frames.png')).toEqual({
      ok: false,
      message: documentMessages.contentMismatch,
    });
  });

  const photo = () =>
    jpegImage(320, 200, {
      segments: [exifGpsSegment(), xmpSegment(), commentSegment('taken at home')],
    });
  const metadata = (bytes: Buffer) => ({
    exif: bytes.includes('Exif\0\0'),
    maker: bytes.includes(EXIF_MAKER),
    gps: bytes.includes(GPS_RATIONALS),
    xmp: bytes.includes('ns.adobe.com/xap'),
    comment: bytes.includes('taken at home'),
  });
  const none = { exif: false, maker: false, gps: false, xmp: false, comment: false };

  it('7.29 a JPEG with EXIF GPS, XMP and a comment → the PDF has none of them, and the image still decodes', async () => {
    const input = photo();
    expect(metadata(input)).toEqual({
      exif: true,
      maker: true,
      gps: true,
      xmp: true,
      comment: true,
    });
    const output = await pdfOf(input, 'photo.jpg');
    expect(metadata(output)).toEqual(none);
    const [image] = await pdfImageStreams(output);
    expect(image?.filter).toBe('/DCTDecode');
    // Chromium decodes the embedded JPEG at its full size (a page of our own, scripts on).
    const context = await (await printer.warm()).newContext();
    try {
      const page = await context.newPage();
      await page.setContent(
        `<img id="i" src="data:image/jpeg;base64,${image!.bytes.toString('base64')}">`,
      );
      const size = await page.evaluate(() => {
        const img = document.getElementById('i') as HTMLImageElement;
        return [img.naturalWidth, img.naturalHeight];
      });
      expect(size).toEqual([320, 200]);
    } finally {
      await context.close();
    }
  });

  it('7.29 …and inside a docx, printed by Chromium', async () => {
    const bytes = await docxZip({
      document: documentXml(paragraph('Photo') + imageParagraph('rId7', 'embed')),
      documentRels: relationships(relationship('rId7', IMAGE_TYPE, 'media/image1.jpeg')),
      extra: { 'word/media/image1.jpeg': photo() },
    });
    const content = await convertContent(bytes, 'essay.docx');
    const html = content.ok && 'html' in content ? content.html : '';
    expect(html).toContain('<img src="data:image/jpeg;base64,');
    const embedded = Buffer.from(/base64,([^"]+)"/.exec(html)![1]!, 'base64');
    expect(metadata(embedded)).toEqual(none);
    expect(metadata(await pdfOf(bytes, 'essay.docx'))).toEqual(none);
  });

  it.each([
    ['a 0-byte file', 'empty.jpg', () => Buffer.alloc(0), documentMessages.empty],
    [
      'a truncated JPEG',
      'cut.jpg',
      () => jpegImage(640, 480).subarray(0, 900),
      documentMessages.imageBroken,
    ],
    [
      'a JPEG cut inside its headers',
      'cut.jpg',
      () => jpegImage(640, 480).subarray(0, 40),
      documentMessages.imageBroken,
    ],
    [
      'a JPEG with no image data',
      'hollow.jpg',
      () => Buffer.from([0xff, 0xd8, 0xff, 0xd9]),
      documentMessages.imageBroken,
    ],
    [
      'a truncated PNG',
      'cut.png',
      async () => (await blackPng(300, 300, 2)).subarray(0, 60),
      documentMessages.imageBroken,
    ],
  ])(
    '7.29 %s → a clean refusal with the applicant’s message',
    async (_label, name, make, message) => {
      expect(await convert(await make(), name)).toEqual({ ok: false, message });
    },
  );
});
