/**
 * Checks a docx before mammoth sees it (SECURITY.md 3.4): every entry is inflated and counted (the
 * sizes a zip declares may lie), stopping past 20 MB in all or 1000 entries; the document part must
 * be there; relationships that point outside the package (linked images, frames, templates) are refused.
 */
import yauzl from 'yauzl';

export const DOCX_MAX_UNPACKED_BYTES = 20 * 1024 * 1024;
export const DOCX_MAX_ENTRIES = 1000;

export type DocxVerdict = { ok: true } | { ok: false; reason: 'tooLarge' | 'external' | 'broken' };

const RELATIONSHIP = /<Relationship\b[^>]*>/g;

function externalNonHyperlink(xml: string): boolean {
  for (const match of xml.matchAll(RELATIONSHIP)) {
    const tag = match[0];
    if (!/TargetMode\s*=\s*["']External["']/i.test(tag)) continue;
    // A hyperlink is only text in the output (JavaScript and the network are off when printing).
    if (/Type\s*=\s*["'][^"']*\/hyperlink["']/i.test(tag)) continue;
    return true;
  }
  return false;
}

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
        zip.on('error', () => finish({ ok: false, reason: 'broken' }, zip));
        zip.on('end', () =>
          finish(hasDocument ? { ok: true } : { ok: false, reason: 'broken' }, zip),
        );
        zip.on('entry', (entry: yauzl.Entry) => {
          entries += 1;
          if (entries > DOCX_MAX_ENTRIES) return finish({ ok: false, reason: 'tooLarge' }, zip);
          if (entry.fileName === 'word/document.xml') hasDocument = true;
          if (entry.fileName.endsWith('/')) return zip.readEntry();
          zip.openReadStream(entry, (streamError, stream) => {
            if (streamError || !stream) return finish({ ok: false, reason: 'broken' }, zip);
            const isRels = entry.fileName.endsWith('.rels');
            const chunks: Buffer[] = [];
            stream.on('data', (chunk: Buffer) => {
              total += chunk.length;
              if (total > DOCX_MAX_UNPACKED_BYTES) {
                stream.destroy();
                finish({ ok: false, reason: 'tooLarge' }, zip);
                return;
              }
              if (isRels) chunks.push(chunk);
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
