/**
 * The worker's memory while it builds a ZIP of N application PDFs (D176), each run in a process of
 * its own: streamed (the job's way, zipStream into LocalStorage.putStream, sealed) against the
 * whole ZIP in memory (D169's way, for comparison). Each PDF is PDF_KB of random bytes made when
 * asked for, as the job reads or prints one; printing itself is Chromium's process, apart.
 *
 *   npx tsx tests/bench/pdfZipMemory.ts            all runs, a table of peaks
 *   npx tsx tests/bench/pdfZipMemory.ts stream 2000  one run (what the table runs)
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { zipStream, type ZipEntry } from '../../server/staff/zipStream';
import { LocalStorage, unretiredKeyring } from '../../server/storage/local';

const PDF_KB = 300;
const RUNS: [mode: string, count: number][] = [
  ['memory', 200],
  ['stream', 200],
  ['memory', 1000],
  ['stream', 1000],
  ['stream', 5000],
];

async function* pdfs(count: number): AsyncGenerator<ZipEntry> {
  for (let index = 0; index < count; index++) {
    await new Promise((resolve) => setImmediate(resolve));
    yield { name: `Applicant-${index}-ABCD-${index}.pdf`, bytes: randomBytes(PDF_KB * 1024) };
  }
}

async function one(mode: string, count: number): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'zip-memory-'));
  const secret = randomBytes(32);
  const storage = new LocalStorage(
    dataDir,
    randomBytes(32),
    () => new Date(),
    unretiredKeyring(() => Promise.resolve({ version: 1, objects: secret })),
  );
  const peak = { rss: 0, heap: 0, buffers: 0 };
  const sample = () => {
    const usage = process.memoryUsage();
    peak.rss = Math.max(peak.rss, usage.rss);
    peak.heap = Math.max(peak.heap, usage.heapUsed);
    peak.buffers = Math.max(peak.buffers, usage.arrayBuffers);
  };
  const timer = setInterval(sample, 10);
  const started = performance.now();
  const key = 'north/pdf-bundles/bench.zip';
  if (mode === 'stream') {
    await storage.putStream(key, zipStream(pdfs(count), new Date()), 'application/zip');
  } else {
    const entries: Record<string, Uint8Array> = {};
    for await (const { name, bytes } of pdfs(count)) entries[name] = bytes;
    sample();
    await storage.put(key, zipSync(entries, { level: 0 }), 'application/zip');
  }
  sample();
  clearInterval(timer);
  const size = (await storage.exists(key))?.size ?? 0;
  await rm(dataDir, { recursive: true, force: true });
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  console.log(
    JSON.stringify({
      mode,
      count,
      zipMb: mb(size),
      peakRssMb: mb(peak.rss),
      peakHeapMb: mb(peak.heap),
      peakBuffersMb: mb(peak.buffers),
      seconds: ((performance.now() - started) / 1000).toFixed(1),
    }),
  );
}

const [mode, count] = process.argv.slice(2);
if (mode) await one(mode, Number(count));
else
  for (const [runMode, runCount] of RUNS)
    process.stdout.write(
      execFileSync(
        process.execPath,
        [...process.execArgv, fileURLToPath(import.meta.url), runMode, String(runCount)],
        { encoding: 'utf8', maxBuffer: 1 << 20 },
      ),
    );
