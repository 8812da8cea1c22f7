/**
 * Conversion benchmark: median time to convert each allowed type to PDF over sample files
 * generated here (tests/server/documentFiles.ts), as ratios to a baseline measured in the same run:
 * pdf-lib loading and re-saving a blank one-page PDF. Chromium's cold start is reported separately.
 * Target: every median well inside the 30 s conversion limit (under 5 s).
 */
import { PDFDocument } from 'pdf-lib';
import { convertToPdf, CONVERSION_TIMEOUT_MS } from '../../server/conversion/convert';
import { ChromiumPrinter } from '../../server/pdf/chromium';
import { docx, jpeg, pdf, png } from '../server/documentFiles';

const ROUNDS = 7;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function timeMs(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

export async function runConversionBench(): Promise<{ ok: boolean; lines: string[] }> {
  const blank = await PDFDocument.create();
  blank.addPage([612, 792]);
  const blankBytes = await blank.save();
  for (let i = 0; i < 10; i++) await (await PDFDocument.load(blankBytes)).save(); // warm-up
  const baselineRuns: number[] = [];
  for (let i = 0; i < ROUNDS * 3; i++)
    baselineRuns.push(await timeMs(async () => (await PDFDocument.load(blankBytes)).save()));
  const baseline = median(baselineRuns);

  const paragraphs = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => `Paragraph ${i + 1}: ${'I would like to study physics. '.repeat(8)}`,
    );
  const samples: Record<string, { name: string; bytes: Buffer }[]> = {
    png: [
      { name: 'small.png', bytes: png(200, 150) },
      { name: 'medium.png', bytes: png(800, 600) },
      { name: 'large.png', bytes: png(1600, 1000) },
    ],
    jpeg: [{ name: 'gradient.jpg', bytes: jpeg(4000, 3000) }],
    pdf: [
      { name: 'one.pdf', bytes: await pdf('Transcript', 1) },
      { name: 'five.pdf', bytes: await pdf('Transcript', 5) },
      { name: 'twenty.pdf', bytes: await pdf('Transcript', 20) },
    ],
    docx: [
      { name: 'short.docx', bytes: await docx(paragraphs(3)) },
      { name: 'essay.docx', bytes: await docx(paragraphs(30)) },
      { name: 'long.docx', bytes: await docx(paragraphs(120)) },
    ],
  };

  const printer = new ChromiumPrinter();
  const lines: string[] = [];
  let ok = true;
  try {
    const cold = await timeMs(() => printer.htmlToPdf('<p>warm-up</p>'));
    lines.push(`Chromium cold start + first print: ${cold.toFixed(0)} ms (once per process)`);
    // Real photographs' worth of JPEG: Chromium screenshots of a gradient page.
    for (const [name, width, height] of [
      ['photo.jpg', 800, 600],
      ['scan.jpeg', 1700, 2200],
    ] as const)
      samples.jpeg!.push({
        name,
        bytes: await printer.withPage(async (page) => {
          await page.setViewportSize({ width, height });
          await page.setContent(
            '<body style="margin:0;height:100vh;background:linear-gradient(135deg,#134,#c84 60%,#eee)"><h1 style="font:64px serif;color:#fff;padding:40px">Transcript</h1></body>',
          );
          return page.screenshot({ type: 'jpeg', quality: 85 });
        }),
      });
    lines.push(
      `baseline: pdf-lib load + save of a blank page, median ${baseline.toFixed(2)} ms over ${baselineRuns.length} runs`,
    );
    for (const [type, files] of Object.entries(samples)) {
      const runs: number[] = [];
      for (const file of files) {
        for (let round = 0; round < ROUNDS; round++) {
          let result: Awaited<ReturnType<typeof convertToPdf>> | undefined;
          runs.push(
            await timeMs(async () => {
              result = await convertToPdf(file.bytes, file.name, printer);
            }),
          );
          if (!result?.ok) {
            ok = false;
            lines.push(
              `${file.name}: conversion failed (${result?.ok === false ? result.message : '?'})`,
            );
          }
        }
      }
      const value = median(runs);
      if (value > 5000 || value > CONVERSION_TIMEOUT_MS) ok = false;
      const sizes = files.map((f) => `${(f.bytes.length / 1024).toFixed(0)} KB`).join(', ');
      lines.push(
        `${type.padEnd(5)} median ${value.toFixed(1).padStart(7)} ms = ${(value / baseline).toFixed(1).padStart(6)} × baseline  (${files.length} files: ${sizes}; ${runs.length} runs)`,
      );
    }
  } finally {
    await printer.close();
  }
  return { ok, lines };
}
