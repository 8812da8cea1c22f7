/**
 * End-to-end harness: builds the client once (Vite, into a temporary folder), starts the real server
 * serving it over a fresh database, and drives Chromium (the one the server prints with) through
 * playwright-core.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  chromium,
  type APIRequestContext,
  type APIResponse,
  type Browser,
  type BrowserContext,
  type Page,
} from 'playwright-core';
import { build } from 'vite';
import { chromiumExecutable } from '../../server/pdf/chromium';
import { codeAt } from '../../server/staff/totp';
import { madeOnce } from '../fixtures/madeOnce';
import { codeIn, PASSWORD, startServer, type TestServer } from '../server/harness';

const built = new Map<string, Promise<string>>();

/** What the client build depends on: a change to any of these means a new build. */
const CLIENT_SOURCES = [
  'src',
  'renderers',
  'runtime',
  'definitions',
  'contract',
  'index.html',
  'vite.config.ts',
  'scripts/firstPageChunk.ts',
  'scripts/workspaceSources.ts',
  'server/security/csp.ts',
  'package-lock.json',
];

async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  const visit = async (entry: string): Promise<void> => {
    const info = await stat(entry).catch(() => null);
    if (!info) return;
    if (info.isDirectory()) {
      // A package's dist/ is the packages test's output (D96), never part of the client.
      if (path.basename(entry) === 'dist') return;
      for (const name of (await readdir(entry)).sort()) await visit(path.join(entry, name));
    } else {
      hash.update(entry);
      hash.update(await readFile(entry));
    }
  };
  for (const source of CLIENT_SOURCES) await visit(source);
  return hash.digest('hex').slice(0, 16);
}

/**
 * Builds the client once for all end-to-end test files (they run in parallel workers): the build
 * is kept in the temporary folder under a hash of its sources; the first file to need it builds it
 * under a lock while the others wait, and later runs with unchanged sources reuse it.
 *
 * Under Vitest (`NODE_ENV=test`) Vite builds React's development code, which the walks keep for
 * its warnings; `production: true` builds what the server ships (React's production code), for a
 * walk that measures the JavaScript a visit fetches (D198).
 */
export function buildClient({
  production = false,
}: { production?: boolean } = {}): Promise<string> {
  const kind = production ? 'production' : 'test';
  let made = built.get(kind);
  if (!made) {
    made = (async () =>
      madeOnce(
        path.join(
          os.tmpdir(),
          `admission-client-${production ? 'prod-' : ''}${await sourceHash()}`,
        ),
        async (staging) => {
          // Vite and the React plugin read NODE_ENV when the build starts (React's code, the JSX
          // runtime): production for the one build, then as it was.
          const nodeEnv = process.env.NODE_ENV;
          if (production) process.env.NODE_ENV = 'production';
          try {
            await build({
              configFile: path.resolve('vite.config.ts'),
              logLevel: 'error',
              mode: production ? 'production' : undefined,
              build: { outDir: staging, emptyOutDir: true },
            });
          } finally {
            process.env.NODE_ENV = nodeEnv;
          }
        },
      ))();
    built.set(kind, made);
  }
  return made;
}

export interface E2E {
  readonly server: TestServer;
  readonly browser: Browser;
  readonly origin: string;
  /** A page in a context of its own; `timezoneId` gives the browser a time zone of its own. */
  newPage(options?: { timezoneId?: string }): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

export async function startE2E({
  production = false,
}: { production?: boolean } = {}): Promise<E2E> {
  // The server's own choice (CHROMIUM_PATH, else Debian's, else the one in @sparticuz/chromium), so
  // `CHROMIUM_PATH=bundled` runs the suite on the bundled browser (D82).
  const executable = await chromiumExecutable();
  const clientDir = await buildClient({ production });
  const server = await startServer({ config: { clientDir } });
  const origin = server.url.replace('127.0.0.1', 'localhost');
  const browser = await chromium.launch({
    executablePath: executable.path,
    env: { ...process.env, ...executable.env },
    args: [
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
    async newPage(options = {}) {
      const context = await browser.newContext({
        baseURL: origin,
        viewport: { width: 1280, height: 900 },
        ...options,
      });
      const page = await context.newPage();
      return { context, page };
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

export const SCREENSHOT_DIR = path.resolve('tests/e2e/artifacts');

/**
 * Makes an applicant through the API, as the sign-up and confirmation screens would: signs up,
 * confirms with the code from the outbox and (unless `logIn: false`) logs in, so the request
 * context's browser context carries the session cookie. Throws with the server's answer on a refusal.
 */
export async function signUpApplicant(
  e2e: Pick<E2E, 'server'>,
  request: APIRequestContext,
  email: string,
  { password = PASSWORD, logIn = true }: { password?: string; logIn?: boolean } = {},
): Promise<void> {
  const ok = async (step: string, sent: Promise<APIResponse>) => {
    const response = await sent;
    if (response.status() !== 200)
      throw new Error(`${step} of ${email} failed: ${response.status()} ${await response.text()}`);
  };
  const before = (await e2e.server.outbox()).length;
  await ok('sign-up', request.post('/public/signup', { data: { username: email, password } }));
  const code = codeIn(await e2e.server.mail(email, 'confirmation code', { after: before }));
  await ok('confirmation', request.post('/public/confirm', { data: { username: email, code } }));
  if (logIn)
    await ok('login', request.post('/public/login', { data: { username: email, password } }));
}

/**
 * Signs a staff member in on the console's login page as a person does: address, password, then the
 * authenticator's code (the clock moved on half a minute, so the code is a fresh one).
 */
export async function signInStaff(
  e2e: Pick<E2E, 'server'>,
  page: Page,
  email: string,
  secret: string,
): Promise<void> {
  await page.goto('/staff');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  e2e.server.clock.advance(30_000);
  await page.getByLabel('Code', { exact: true }).fill(codeAt(secret, e2e.server.clock.now()));
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * The bytes of a blob a page makes (a canvas's image), carried back as base64: as an array of
 * numbers, a phone photo's 3 MB took the protocol about 40 s to carry.
 */
export async function blobFromPage(page: Page, make: () => Promise<Blob>): Promise<Buffer> {
  const blob = await page.evaluateHandle(make);
  try {
    const base64 = await blob.evaluate(
      (made: Blob) =>
        new Promise<string>((resolve, reject) => {
          const reader = new FileReader();
          reader.onload = () => resolve((reader.result as string).replace(/^[^,]*,/, ''));
          reader.onerror = () => reject(reader.error);
          reader.readAsDataURL(made);
        }),
    );
    return Buffer.from(base64, 'base64');
  } finally {
    await blob.dispose();
  }
}
