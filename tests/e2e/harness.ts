/**
 * End-to-end harness: builds the client once (Vite, into a temporary folder), starts the real server
 * serving it over a fresh database, and drives Debian's Chromium through playwright-core.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { build } from 'vite';
import { startServer, type TestServer } from '../server/harness';

export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

let built: Promise<string> | null = null;

/** Builds the client once per test file. */
export function buildClient(): Promise<string> {
  built ??= (async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'admission-client-'));
    await build({
      configFile: path.resolve('vite.config.ts'),
      logLevel: 'error',
      build: { outDir, emptyOutDir: true },
    });
    return outDir;
  })();
  return built;
}

export interface E2E {
  readonly server: TestServer;
  readonly browser: Browser;
  readonly origin: string;
  newPage(): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

export async function startE2E(): Promise<E2E> {
  if (!CHROMIUM_PATH)
    throw new Error('Chromium is missing: run `bash .ci/chromium.sh` (or set CHROMIUM_PATH).');
  const clientDir = await buildClient();
  const server = await startServer({ config: { clientDir } });
  const origin = server.url.replace('127.0.0.1', 'localhost');
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    server,
    browser,
    origin,
    async newPage() {
      const context = await browser.newContext({
        baseURL: origin,
        viewport: { width: 1280, height: 900 },
      });
      const page = await context.newPage();
      return { context, page };
    },
    async close() {
      await browser.close();
      await server.close();
      await rm(clientDir, { recursive: true, force: true }).catch(() => undefined);
      built = null;
    },
  };
}

export const SCREENSHOT_DIR = path.resolve('tests/e2e/artifacts');
