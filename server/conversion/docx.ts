/**
 * A docx before and after mammoth (SECURITY.md 3.4, 7.28).
 *
 * Before: every entry is inflated and counted with yauzl (the sizes a zip declares may lie), stopping
 * past 20 MB in all or 1000 entries; names that are absolute, climb with `..` or hold a backslash
 * (yauzl's strict names) and symbolic links are refused; a DTD anywhere in an XML part is refused
 * (OOXML forbids them, and they carry external entities and entity bombs); the document part must be
 * there; relationships that point outside the package, other than hyperlinks, are refused.
 *
 * After: mammoth (external file access off) with every embedded image checked (PNG or JPEG by its
 * bytes, size from the header, 40 megapixels in all, PNG chunks checked, JPEG metadata removed), and
 * its HTML passed
 * through an allow-list sanitiser: known tags only, links only to http, https, mailto or a fragment,
 * images only as PNG or JPEG data (docs/decisions/ D63).
 */
import mammoth from 'mammoth';
import sanitizeHtml from 'sanitize-html';
import yauzl from 'yauzl';
import { checkImageHeader, checkPng, cleanJpeg, MAX_IMAGE_PIXELS } from './images';

export const DOCX_MAX_UNPACKED_BYTES = 20 * 1024 * 1024;
export const DOCX_MAX_ENTRIES = 1000;

export type DocxVerdict = { ok: true } | { ok: false; reason: 'tooLarge' | 'external' | 'broken' };

const RELATIONSHIP = /<(?:[\w.-]+:)?Relationship\b((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const ATTRIBUTE = /([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** An attribute value as an XML parser reads it (character references and the five entities). */
function xmlValue(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&(quot|apos|lt|gt|amp);/g, (_, name: string) =>
      name === 'quot'
        ? '"'
        : name === 'apos'
          ? "'"
          : name === 'lt'
            ? '<'
            : name === 'gt'
              ? '>'
              : '&',
    );
}

/** True when a relationships part names an external target that is not a hyperlink. */
function externalNonHyperlink(xml: string): boolean {
  for (const element of xml.matchAll(RELATIONSHIP)) {
    const attributes = new Map<string, string>();
    for (const attribute of (element[1] ?? '').matchAll(ATTRIBUTE))
      attributes.set(
        (attribute[1] as string).replace(/^.*:/, ''),
        xmlValue(attribute[2] ?? attribute[3] ?? ''),
      );
    if ((attributes.get('TargetMode') ?? '').trim().toLowerCase() !== 'external') continue;
    // A hyperlink is only text in the output (JavaScript and the network are off when printing).
    if (/\/hyperlink$/.test((attributes.get('Type') ?? '').trim())) continue;
    return true;
  }
  return false;
}

/** `<!DOCTYPE` or `<!ENTITY`, also when spread over UTF-16 code units. */
const DTD = /<!(?:DOCTYPE|ENTITY)/i;
/** A symbolic link's file type in the high half of a zip entry's external attributes (Unix). */
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

export function inspectDocx(bytes: Buffer): Promise<DocxVerdict> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (verdict: DocxVerdict, zip?: yauzl.ZipFile) => {
      if (settled) return;
      settled = true;
      zip?.close();
      resolve(verdict);
    };
    yauzl.fromBuffer(
      bytes,
      { lazyEntries: true, validateEntrySizes: true, strictFileNames: true },
      (openError, zip) => {
        if (openError || !zip) return finish({ ok: false, reason: 'broken' });
        let total = 0;
        let entries = 0;
        let hasDocument = false;
        // yauzl refuses absolute names, `..` segments and backslashes (strictFileNames).
        zip.on('error', () => finish({ ok: false, reason: 'broken' }, zip));
        zip.on('end', () =>
          finish(hasDocument ? { ok: true } : { ok: false, reason: 'broken' }, zip),
        );
        zip.on('entry', (entry: yauzl.Entry) => {
          entries += 1;
          if (entries > DOCX_MAX_ENTRIES) return finish({ ok: false, reason: 'tooLarge' }, zip);
          if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK)
            return finish({ ok: false, reason: 'broken' }, zip);
          if (entry.fileName === 'word/document.xml') hasDocument = true;
          if (entry.fileName.endsWith('/')) return zip.readEntry();
          zip.openReadStream(entry, (streamError, stream) => {
            if (streamError || !stream) return finish({ ok: false, reason: 'broken' }, zip);
            const isRels = entry.fileName.endsWith('.rels');
            const isXml = isRels || entry.fileName.endsWith('.xml');
            const chunks: Buffer[] = [];
            let tail = '';
            stream.on('data', (chunk: Buffer) => {
              total += chunk.length;
              if (total > DOCX_MAX_UNPACKED_BYTES) {
                stream.destroy();
                finish({ ok: false, reason: 'tooLarge' }, zip);
                return;
              }
              if (isRels) chunks.push(chunk);
              if (isXml) {
                // NULs removed so UTF-16 text is seen too; a few characters carried over so a
                // marker split between two chunks is found.
                const text = tail + chunk.toString('latin1').replace(/\0/g, '');
                if (DTD.test(text)) {
                  stream.destroy();
                  finish({ ok: false, reason: 'broken' }, zip);
                  return;
                }
                tail = text.slice(-16);
              }
            });
            stream.on('error', () => finish({ ok: false, reason: 'broken' }, zip));
            stream.on('end', () => {
              if (isRels && externalNonHyperlink(Buffer.concat(chunks).toString('utf8')))
                return finish({ ok: false, reason: 'external' }, zip);
              if (!settled) zip.readEntry();
            });
          });
        });
        zip.readEntry();
      },
    );
  });
}

/** Tags mammoth writes with its default style map, and their attributes. */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'em',
    'u',
    's',
    'sup',
    'sub',
    'a',
    'img',
    'ul',
    'ol',
    'li',
    'table',
    'thead',
    'tbody',
    'tr',
    'td',
    'th',
    'br',
    'dl',
    'dt',
    'dd',
    'input',
  ],
  allowedAttributes: {
    a: ['href', 'id'],
    img: ['src', 'alt'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
    input: ['type', 'checked', 'disabled'],
    '*': ['id'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // Links: absolute http(s) or mailto, or a fragment (footnotes); anything else loses its href.
    a: (tagName, attribs) => {
      const { href, ...rest } = attribs;
      return {
        tagName,
        attribs: href && /^(?:https?:\/\/|mailto:|#)/i.test(href.trim()) ? { ...rest, href } : rest,
      };
    },
    input: (_tagName, attribs) => ({
      tagName: 'input',
      attribs: { type: 'checkbox', disabled: '', ...('checked' in attribs ? { checked: '' } : {}) },
    }),
  },
  // Images only as PNG or JPEG data (the checked bytes below); any other image is dropped.
  exclusiveFilter: (frame) =>
    frame.tag === 'img' && !/^data:image\/(?:png|jpeg);base64,/.test(frame.attribs.src ?? ''),
};

export type DocxHtml = { ok: true; html: string } | { ok: false; reason: 'broken' | 'images' };

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The docx's body as sanitised HTML (call `inspectDocx` first). */
export async function docxBodyHtml(buffer: Buffer): Promise<DocxHtml> {
  let pixels = 0;
  const convertImage = mammoth.images.imgElement(async (image) => {
    const bytes = new Uint8Array(await image.read());
    const png = PNG.every((byte, i) => bytes[i] === byte);
    const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
    // Other formats (EMF, TIFF, SVG…) would not print anyway; they are left out.
    if (!png && !jpeg) return { src: '' };
    const header = checkImageHeader(bytes, Number.MAX_SAFE_INTEGER);
    if (!header.ok) return { src: '' };
    // Chromium decodes every image in full when it prints: the pixels of all images together are
    // capped like one uploaded image.
    pixels += header.width * header.height;
    if (pixels > MAX_IMAGE_PIXELS) return { src: '' };
    const clean = png ? (checkPng(bytes) === 'ok' ? bytes : null) : cleanJpeg(bytes);
    if (!clean) return { src: '' };
    return {
      src: `data:image/${png ? 'png' : 'jpeg'};base64,${Buffer.from(clean).toString('base64')}`,
    };
  });
  let body: string;
  try {
    body = (await mammoth.convertToHtml({ buffer }, { externalFileAccess: false, convertImage }))
      .value;
  } catch {
    return { ok: false, reason: 'broken' };
  }
  if (pixels > MAX_IMAGE_PIXELS) return { ok: false, reason: 'images' };
  return { ok: true, html: sanitizeHtml(body, SANITIZE) };
}
