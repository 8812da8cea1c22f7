/**
 * The built app served by the real server on a fresh embedded database, and Chromium to open it: what
 * the delivery benchmarks measure (bytes on the wire, paint and input timings), as an applicant's
 * browser sees it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { get } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { buildServer } from '../../server/app';
import { configFromEnv } from '../../server/config';
import { runInTenant } from '../../server/db/tenantScope';
import { users } from '../../server/db/schema';
import { PasswordHasher } from '../../server/passwords';
import { chromiumExecutable } from '../../server/pdf/chromium';

export const BENCH_EMAIL = 'phone-bench@example.com';
const BENCH_PASSWORD = 'Bench-Password-1';

export interface ServedApp {
  readonly origin: string;
  readonly clientDir: string;
  readonly browser: Browser;
  /** The cookies of a logged-in applicant (session and indicator), for a browser context. */
  loginCookies(): Promise<{ name: string; value: string; url: string }[]>;
  close(): Promise<void>;
}

export async function serveApp(): Promise<ServedApp> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'admission-served-'));
  // BENCH_CLIENT_DIR serves another build (an earlier commit's, for before-and-after figures).
  const clientDir = process.env.BENCH_CLIENT_DIR ?? path.join(root, 'client');
  if (!process.env.BENCH_CLIENT_DIR)
    await build({
      configFile: path.resolve('vite.config.ts'),
      logLevel: 'error',
      build: { outDir: clientDir, emptyOutDir: true },
    });
  const config = configFromEnv({
    NODE_ENV: 'production',
    DATA_DIR: path.join(root, 'data'),
    LOG_LEVEL: 'silent',
    CLIENT_DIR: clientDir,
  });
  const built = await buildServer(config);
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  const address = built.app.server.address();
  const origin = `http://localhost:${typeof address === 'object' && address ? address.port : 0}`;
  const executable = await chromiumExecutable();
  const browser = await chromium.launch({
    executablePath: executable.path,
    env: { ...process.env, ...executable.env },
    args: ['--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });

  const passwordHash = await new PasswordHasher(config.argon2).hash(BENCH_PASSWORD);
  // In the tenant's scope: on PostgreSQL, row-level security admits nothing else (D56).
  await runInTenant(config.defaultTenant, () =>
    built.database.db
      .insert(users)
      .values({
        tenantId: config.defaultTenant,
        email: BENCH_EMAIL,
        passwordHash,
        confirmedAt: new Date(),
        createdAt: new Date(),
      })
      .onConflictDoNothing(),
  );

  return {
    origin,
    clientDir,
    browser,
    async loginCookies() {
      const login = await fetch(`${origin}/public/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ username: BENCH_EMAIL, password: BENCH_PASSWORD }),
      });
      if (!login.ok) throw new Error(`bench login failed: ${login.status}`);
      return login.headers.getSetCookie().map((line) => {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: origin };
      });
    },
    async close() {
      await browser.close();
      await built.app.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** The size of a response body as it went over the wire (node:http does not decode it). */
export function bodyBytes(url: string, acceptEncoding: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve(bytes));
    }).on('error', reject);
  });
}
