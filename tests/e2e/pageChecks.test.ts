/**
 * The accessibility check every end-to-end walk relies on: it must fail on a page axe faults, and
 * pass on a clean one, also when called again on the same document.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumExecutable } from '../../server/pdf/chromium';
import { expectNoAxeViolations } from './pageChecks';

const PAGE = (body: string) =>
  `<!doctype html><html lang="en"><head><title>Check</title></head><body><main><h1>Check</h1>${body}</main></body></html>`;

describe('the axe check of the end-to-end walks', () => {
  let browser: Browser;
  beforeAll(async () => {
    const executable = await chromiumExecutable();
    browser = await chromium.launch({
      executablePath: executable.path,
      env: { ...process.env, ...executable.env },
    });
  });
  afterAll(() => browser.close());

  it('passes a clean page, then fails it once it has a nameless button', async () => {
    const page = await browser.newPage();
    await page.setContent(PAGE('<label for="a">Name</label><input id="a">'));
    await expectNoAxeViolations(page, 'clean');

    await page.evaluate(() => {
      document.querySelector('main')!.insertAdjacentHTML('beforeend', '<button></button>');
    });
    const failure = await expectNoAxeViolations(page, 'faulty').then(
      () => null,
      (error: Error) => error.message,
    );
    expect(failure).toContain('axe on faulty');
    expect(failure).toContain('button-name');
  });

  it('checks a new document after a navigation, not the old one', async () => {
    const page = await browser.newPage();
    await page.setContent(PAGE('<label for="a">Name</label><input id="a">'));
    await expectNoAxeViolations(page, 'first');
    await page.setContent(PAGE('<img src="data:,">'));
    await expect(expectNoAxeViolations(page, 'second')).rejects.toThrow('image-alt');
  });
});
