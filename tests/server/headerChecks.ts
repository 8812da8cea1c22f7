/**
 * The response headers every answer carries (ASVS 3.4 / 14.3, D50), and a built client stand-in so
 * index.html is served: shared by the header tests of the applicant's and the staff's routes.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { CSP_NONCE_PLACEHOLDER } from '../../server/security/csp';
import type { Response } from './harness';

/** A built client stand-in: index.html with Vite's nonce placeholder and one hashed asset. */
export async function clientFixture(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'admission-headers-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}"><script type="module" src="/assets/index-AbC123.js" nonce="${CSP_NONCE_PLACEHOLDER}"></script></head><body><div id="root"></div></body></html>`,
  );
  await writeFile(path.join(dir, 'assets', 'index-AbC123.js'), 'export {};\n');
  return dir;
}

export function expectBaseHeaders(response: Response, label: string) {
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp, `CSP on ${label}`).toContain("default-src 'self'");
  expect(csp, label).toContain("frame-ancestors 'none'");
  expect(csp, label).toContain("object-src 'none'");
  expect(csp, label).toMatch(/script-src 'self'(;| 'nonce-)/);
  expect(csp, label).not.toContain('unsafe-inline');
  expect(csp, label).not.toContain('unsafe-eval');
  expect(response.headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(response.headers.get('referrer-policy'), label).toBe('no-referrer');
  expect(response.headers.get('x-frame-options'), label).toBe('DENY');
  expect(response.headers.get('cross-origin-opener-policy'), label).toBe('same-origin');
}
