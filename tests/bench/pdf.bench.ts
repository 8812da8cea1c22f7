/**
 * Application PDF benchmark (D124): the time to build one applicant's PDF copy (the print set's
 * HTML rendered with react-dom/server, printed by the warm Chromium, two converted documents appended
 * with pdf-lib, saved), median of 20, beside the baseline measured in the same run: Chromium printing
 * the same HTML alone. Runs alternate, so all see the same machine. Target: within 1.5× the baseline.
 * Also in the same runs: the PDF without attachments, so what the attached documents cost (their
 * framed pages in the one print, D114, and drawing their pages) shows as a share of the PDF time.
 */
import { PDFDocument } from 'pdf-lib';
import { convertToPdf } from '../../server/conversion/convert';
import { ChromiumPrinter } from '../../server/pdf/chromium';
import { buildApplicationPdf, copyHtml, type Sources } from '../../server/applicationPdf';
import type { ObjectStorage } from '../../server/storage/storage';
import { validApplication } from '../definitions/fixtures';
import { twoDocumentsDefinition } from '../fixtures/twoDocumentsDefinition';
import { pdf, png } from '../server/documentFiles';

const RUNS = 20;
const TARGET_RATIO = 1.5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The converted documents, kept in memory (the storage adapter is not what is measured). */
class MemoryStorage implements Pick<ObjectStorage, 'get' | 'put'> {
  private readonly objects = new Map<string, Buffer>();
  async put(key: string, bytes: Uint8Array): Promise<void> {
    this.objects.set(key, Buffer.from(bytes));
  }
  async get(key: string): Promise<Buffer | null> {
    return this.objects.get(key) ?? null;
  }
}

export async function runPdfBench(): Promise<{ ok: boolean; lines: string[] }> {
  const printer = new ChromiumPrinter();
  const storage = new MemoryStorage();
  const lines: string[] = [];
  try {
    for (const [key, name, bytes] of [
      ['transcript_file', 'transcript.pdf', await pdf('Transcript page', 2)],
      ['essay_file', 'essay.png', png(800, 600)],
    ] as const) {
      const converted = await convertToPdf(bytes, name, printer);
      if (!converted.ok) throw new Error(`sample ${name} did not convert: ${converted.message}`);
      await storage.put(`converted/${key}.pdf`, converted.pdf);
    }
    const now = new Date('2026-11-23T12:00:00Z');
    const sources: Sources = {
      definition: twoDocumentsDefinition,
      answers: { ...validApplication, hs_ceeb: '460123', essay_file: 'ANSWERED' },
      tabs: {},
      submittedAt: now,
      documents: [
        {
          questionKey: 'transcript_file',
          fileName: 'transcript.pdf',
          pdfKey: 'converted/transcript_file.pdf',
        },
        { questionKey: 'essay_file', fileName: 'essay.png', pdfKey: 'converted/essay_file.pdf' },
      ],
      reference: 'BENC-H000',
      timeZone: 'America/New_York',
      digest: 'bench',
    };
    const context = { printer, storage: storage as unknown as ObjectStorage };
    const html = copyHtml(twoDocumentsDefinition, sources, now);
    const withoutDocuments: Sources = { ...sources, documents: [] };

    // Warm-up: Chromium's first launch, the renderer's first render, pdf-lib's first load.
    const coldStart = performance.now();
    await printer.htmlToPdf(html);
    lines.push(
      `Chromium cold start + first print: ${(performance.now() - coldStart).toFixed(0)} ms`,
    );
    for (let i = 0; i < 3; i++)
      await buildApplicationPdf(context, twoDocumentsDefinition, sources, now);

    const pipeline: number[] = [];
    const baseline: number[] = [];
    const bare: number[] = [];
    let built = await buildApplicationPdf(context, twoDocumentsDefinition, sources, now);
    const pageCount = (await PDFDocument.load(built)).getPageCount();
    const timed = async (into: number[], work: () => Promise<unknown>) => {
      const start = performance.now();
      await work();
      into.push(performance.now() - start);
    };
    for (let i = 0; i < RUNS; i++) {
      await timed(baseline, () => printer.htmlToPdf(html));
      await timed(pipeline, async () => {
        built = await buildApplicationPdf(context, twoDocumentsDefinition, sources, now);
      });
      await timed(bare, () =>
        buildApplicationPdf(context, twoDocumentsDefinition, withoutDocuments, now),
      );
    }
    const bytes = built.length;
    const ours = median(pipeline);
    const alone = median(baseline);
    const ratio = ours / alone;
    lines.push(
      `baseline: Chromium printing the copy's HTML alone, median ${alone.toFixed(0)} ms over ${RUNS} runs`,
    );
    lines.push(
      `application PDF (HTML render + print + 2 documents appended + save): median ${ours.toFixed(0)} ms = ${ratio.toFixed(2)} × baseline (target ≤ ${TARGET_RATIO}); ${pageCount} pages, ${(bytes / 1024).toFixed(0)} KB`,
    );
    const noDocuments = median(bare);
    const attached = ours - noDocuments;
    lines.push(
      `application PDF without attachments: median ${noDocuments.toFixed(0)} ms = ${(noDocuments / alone).toFixed(2)} × baseline`,
    );
    lines.push(
      `the attached documents' share (framed pages in the one print, their pages drawn): ${attached.toFixed(0)} ms = ${((attached / ours) * 100).toFixed(0)} % of the PDF with attachments`,
    );
    return { ok: ratio <= TARGET_RATIO, lines };
  } finally {
    await printer.close();
  }
}
