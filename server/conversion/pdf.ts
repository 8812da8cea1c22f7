/**
 * A PDF rebuilt without active content (SECURITY.md 3.3, 7.27): loaded with pdf-lib (an encrypted
 * file is refused), each page cut down to an allow-list of keys (boxes, rotation, resources, contents),
 * everything reachable from those scrubbed of actions, scripts, forms, attachments and metadata, and
 * only then copied into a new document, so that whatever was removed is no longer referenced and stays
 * behind. The output is checked once more and saved without object streams, so a byte scan of the
 * stored file sees every dictionary (docs/decisions/ D60).
 */
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNull,
  PDFRef,
  PDFStream,
  type PDFContext,
  type PDFObject,
} from 'pdf-lib';

export type PdfRebuild =
  { ok: true; pdf: Uint8Array } | { ok: false; reason: 'encrypted' | 'broken' };

/** What a page keeps; inherited boxes, rotation and resources are made its own first. */
const PAGE_KEYS = new Set([
  'Type',
  'Parent',
  'MediaBox',
  'CropBox',
  'BleedBox',
  'TrimBox',
  'ArtBox',
  'Rotate',
  'UserUnit',
  'Group',
  'Resources',
  'Contents',
]);
const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate'];

/** Keys removed wherever they appear under a page (SECURITY.md 3.3's list, and where it hides). */
const ACTIVE_KEYS = new Set([
  'JS',
  'JavaScript',
  'AA',
  'OpenAction',
  'Launch',
  'EmbeddedFile',
  'EmbeddedFiles',
  'EF',
  'XFA',
  'AcroForm',
  'Names',
  'Annots',
  'RichMedia',
  'RichMediaContent',
  'SubmitForm',
  'ImportData',
  'URI',
  'Metadata',
  'PieceInfo',
]);

/** Values of /S, /Type or /Subtype that make a dictionary an action, a file or a form: unlinked. */
const ACTIVE_KINDS = new Set([
  'JavaScript',
  'Launch',
  'SubmitForm',
  'ResetForm',
  'ImportData',
  'GoToR',
  'GoToE',
  'URI',
  'Rendition',
  'Movie',
  'Sound',
  'RichMedia',
  'RichMediaExecute',
  'EmbeddedFile',
  'Filespec',
  'Action',
  'Annot',
  'XFA',
]);

function dictOf(object: PDFObject | undefined): PDFDict | undefined {
  if (object instanceof PDFDict) return object;
  if (object instanceof PDFStream) return object.dict;
  return undefined;
}

function isActive(dict: PDFDict): boolean {
  for (const key of ['S', 'Type', 'Subtype']) {
    const value = dict.get(PDFName.of(key));
    if (value instanceof PDFName && ACTIVE_KINDS.has(value.decodeText())) return true;
  }
  return false;
}

/**
 * Removes active keys from every dictionary reachable from `roots`, and unlinks (deletes the key, or
 * nulls the array slot) any value that is itself an action, a file or a form.
 */
function scrub(context: PDFContext, roots: PDFObject[]): void {
  const seen = new Set<PDFObject>();
  const stack = [...roots];
  const resolve = (object: PDFObject) =>
    object instanceof PDFRef ? context.lookup(object) : object;
  const unsafe = (object: PDFObject) => {
    const dict = dictOf(resolve(object));
    return dict !== undefined && isActive(dict);
  };
  while (stack.length > 0) {
    const object = resolve(stack.pop() as PDFObject);
    if (!object || seen.has(object)) continue;
    seen.add(object);
    const dict = dictOf(object);
    if (dict) {
      for (const [key, value] of dict.entries()) {
        if (ACTIVE_KEYS.has(key.decodeText()) || unsafe(value)) dict.delete(key);
        else if (key.decodeText() !== 'Parent') stack.push(value);
      }
    } else if (object instanceof PDFArray) {
      for (let i = 0; i < object.size(); i++) {
        const value = object.get(i);
        if (unsafe(value)) object.set(i, PDFNull);
        else stack.push(value);
      }
    }
  }
}

/** True when any dictionary of the document still carries an active key or kind. */
function stillActive(document: PDFDocument): boolean {
  for (const [, object] of document.context.enumerateIndirectObjects()) {
    const dict = dictOf(object);
    if (!dict) continue;
    if (isActive(dict)) return true;
    for (const key of dict.keys()) if (ACTIVE_KEYS.has(key.decodeText())) return true;
  }
  return false;
}

export async function rebuildPdf(bytes: Uint8Array): Promise<PdfRebuild> {
  let source: PDFDocument;
  try {
    // Loaded with ignoreEncryption only to ask isEncrypted: an encrypted file is refused below.
    source = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  } catch {
    return { ok: false, reason: 'broken' };
  }
  if (source.isEncrypted) return { ok: false, reason: 'encrypted' };
  try {
    const pages = source.getPages();
    if (pages.length === 0) return { ok: false, reason: 'broken' };
    for (const page of pages) {
      const node = page.node;
      for (const key of INHERITED) {
        const name = PDFName.of(key);
        const inherited = node.getInheritableAttribute(name);
        if (!node.get(name) && inherited) node.set(name, inherited);
      }
      for (const key of node.keys()) if (!PAGE_KEYS.has(key.decodeText())) node.delete(key);
      scrub(
        source.context,
        node
          .entries()
          .filter(([key]) => key.decodeText() !== 'Parent')
          .map(([, value]) => value),
      );
    }
    // A new document with copies of the scrubbed pages only: the catalog (OpenAction, Names,
    // AcroForm, outlines) and every object no longer referenced stay behind.
    const output = await PDFDocument.create({ updateMetadata: false });
    const copied = await output.copyPages(source, source.getPageIndices());
    for (const page of copied) output.addPage(page);
    if (stillActive(output)) return { ok: false, reason: 'broken' };
    return { ok: true, pdf: await output.save({ useObjectStreams: false }) };
  } catch {
    return { ok: false, reason: 'broken' };
  }
}
