/**
 * Bundle benchmark (issue 4): builds the client and measures the JavaScript the first page loads
 * (the entry script and the chunks index.html preloads), gzip-compressed. Target ≤ 160 kB.
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

const BUDGET = 160 * 1024;

export async function runBundleBench(): Promise<{ ok: boolean; lines: string[] }> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'admission-bundle-'));
  try {
    await build({
      configFile: path.resolve('vite.config.ts'),
      logLevel: 'error',
      build: { outDir, emptyOutDir: true },
    });
    const html = await readFile(path.join(outDir, 'index.html'), 'utf8');
    const firstPage = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map(
      (m) => m[1] as string,
    );
    const gz = async (file: string) => gzipSync(await readFile(path.join(outDir, file))).length;
    let first = 0;
    for (const file of firstPage) first += await gz(file);
    const floor = await stackFloorBytes();
    const all = (await readdir(path.join(outDir, 'assets'))).filter((f) => f.endsWith('.js'));
    let total = 0;
    const sizes: [string, number, number][] = [];
    for (const file of all) {
      const size = await gz(`assets/${file}`);
      total += size;
      sizes.push([file, (await stat(path.join(outDir, 'assets', file))).size, size]);
    }
    const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
    const lines = [
      `first page JavaScript: ${kb(first)} gzip in ${firstPage.length} file(s) (target ≤ ${kb(BUDGET)})`,
      `baseline, the mandated stack alone (tests/bench/bundle-floor): ${kb(floor)} gzip; our first page is ${(first / floor).toFixed(2)}x of it, ${kb(first - floor)} above it`,
      `all JavaScript: ${kb(total)} gzip in ${all.length} chunk(s)`,
      ...sizes
        .sort((a, b) => b[2] - a[2])
        .slice(0, 8)
        .map(([file, raw, gzip]) => `  ${file}: ${kb(raw)} raw, ${kb(gzip)} gzip`),
    ];
    return { ok: first <= BUDGET, lines };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/** The first-page JavaScript of the smallest page built with the mandated stack, gzip bytes. */
async function stackFloorBytes(): Promise<number> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'admission-bundle-floor-'));
  try {
    await build({
      configFile: false,
      root: path.resolve('tests/bench/bundle-floor'),
      plugins: [react()],
      logLevel: 'error',
      build: { outDir, emptyOutDir: true },
    });
    const html = await readFile(path.join(outDir, 'index.html'), 'utf8');
    let bytes = 0;
    for (const [, file] of html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g))
      bytes += gzipSync(await readFile(path.join(outDir, file as string))).length;
    return bytes;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
