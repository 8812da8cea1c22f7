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
 * @axe-core/playwright's `analyze()` took 3–5 s a call (it opens a page of its own to merge frame
 * results); this takes a few hundred milliseconds. The one frame the product shows is a PDF, which
 * axe cannot read; the frame element itself is still checked.
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

/** Saves `tests/e2e/artifacts/<name>.png`; `fullPage` for the whole scrolled page. */
export async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage });
}
