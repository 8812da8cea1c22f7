/** Checks every end-to-end file uses: axe with no violations, and screenshots to look at. */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { SCREENSHOT_DIR } from './harness';

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * axe-core's default rules on the page, injected once per document and asked for violations only.
 * Not @axe-core/playwright's `analyze()`, which opens a page of its own for every call to merge
 * the frames' results (D203). The one frame the product shows is a PDF, which axe cannot read; the
 * frame element itself is still checked.
 */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run: (options: object) => Promise<AxeResults> } }).axe.run({
      resultTypes: ['violations'],
      iframes: false,
    }),
  );
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary, `axe on ${label}`).toEqual([]);
}

/**
 * Whether the walks photograph the screens: for people to look at, so not on CI, where nobody
 * does, and each is a PNG Chromium encodes (D203); `E2E_SCREENSHOTS=1` (or `0`) decides either way.
 */
export const SCREENSHOTS =
  process.env.E2E_SCREENSHOTS !== undefined ? process.env.E2E_SCREENSHOTS !== '0' : !process.env.CI;

/** Saves the screen at `file` (a PNG) when screenshots are taken; whether it did. */
export async function screenshotTo(page: Page, file: string, fullPage = false): Promise<boolean> {
  if (!SCREENSHOTS) return false;
  mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage });
  return true;
}

/** Saves `tests/e2e/artifacts/<name>.png`; `fullPage` for the whole scrolled page. */
export function shot(page: Page, name: string, fullPage = false): Promise<boolean> {
  return screenshotTo(page, path.join(SCREENSHOT_DIR, `${name}.png`), fullPage);
}
