/**
 * End to end in Chromium: the PDF copy's download link on the completion page (SPEC 2.4, 4.5, 8).
 * The real server prepares the PDF after submit; the browser sees the link disabled while it is
 * prepared, downloads the real file once it is ready, and sees the error toast when it failed.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfMessages, type ApplicationPdfResponse } from '../../contract';
import { notices } from '../../contract/words';
import { validApplication } from '../definitions/fixtures';
import { pdfPagesText, squeeze } from '../fixtures/pdfText';
import { signUpApplicant, startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';

const text = notices.pdfDownload;

/** An account with a submitted application, made through the API in the page's own cookie jar. */
async function submittedApplicant(e2e: E2E, page: Page, email: string): Promise<void> {
  await signUpApplicant(e2e, page.request, email);
  const ok = async (call: Promise<{ status(): number }>) => expect((await call).status()).toBe(200);
  await ok(page.request.put('/api/answer', { data: { ...validApplication, hs_ceeb: '460123' } }));
  await ok(page.request.post('/api/submit', { data: {} }));
}

const pdfLink = (page: Page) => page.getByRole('link', { name: text.link });

describe('the PDF copy in Chromium', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 120_000);
  afterAll(async () => e2e?.close());

  it('is disabled while it is prepared, then downloads the applicant’s PDF', async () => {
    const { context, page } = await e2e.newPage();
    try {
      await submittedApplicant(e2e, page, 'pdf-copy@example.com');
      // Status reads say "in progress" whatever the server has done until the test has seen (and
      // photographed) the disabled state; the reads after that reach the server.
      let held = 0;
      let release = false;
      await page.route('**/api/pdf', async (route) => {
        if (release) return route.continue();
        held += 1;
        const body: ApplicationPdfResponse = {
          status: 'IN_PROGRESS',
          url: null,
          message: pdfMessages.inProgress,
        };
        await route.fulfill({ json: body });
      });
      await page.goto('/completion');
      const disabled = pdfLink(page);
      await disabled.waitFor();
      expect(await disabled.getAttribute('aria-disabled')).toBe('true');
      expect(await disabled.getAttribute('href')).toBeNull();
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: text.preparing }).count())
        .toBe(1);
      await expectNoAxeViolations(page, '/completion (PDF preparing)');
      await shot(page, 'completion-pdf-preparing');
      expect(held).toBeGreaterThan(0);
      release = true;

      await expect
        .poll(() => pdfLink(page).getAttribute('href'), { timeout: 60_000 })
        .toMatch(/^\/api\/pdf\/file\?download=/);
      expect(await pdfLink(page).getAttribute('aria-disabled')).toBeNull();
      await expectNoAxeViolations(page, '/completion (PDF ready)');
      await shot(page, 'completion-pdf-ready', true);

      const [download] = await Promise.all([page.waitForEvent('download'), pdfLink(page).click()]);
      expect(download.suggestedFilename()).toMatch(/\.pdf$/);
      const bytes = await readFile((await download.path()) as string);
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const printed = squeeze((await pdfPagesText(new Uint8Array(bytes))).join(''));
      expect(printed).toContain(squeeze('Avery Jordan Lopez'));
      expect(printed).toContain(squeeze('Northfield Regional High School (Ceeb: 460123)'));
      expect(printed).toContain('***-**-6789');
      expect(printed).not.toContain('123-45-6789');
      expect(page.url()).toContain('/completion');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('shows the error toast when the PDF could not be prepared', async () => {
    const { context, page } = await e2e.newPage();
    try {
      await submittedApplicant(e2e, page, 'pdf-failed@example.com');
      await page.route('**/api/pdf', (route) =>
        route.fulfill({
          json: { status: 'FAILED', url: null, message: pdfMessages.failed },
        }),
      );
      await page.goto('/completion');
      // Radix repeats a toast's text in its live region: the first match is the toast itself.
      await page.getByText(text.failed).first().waitFor();
      await page.getByText(pdfMessages.failed).first().waitFor();
      await page.getByRole('button', { name: text.retry }).waitFor();
      await expectNoAxeViolations(page, '/completion (PDF failed)');
      await shot(page, 'completion-pdf-failed');
    } finally {
      await context.close();
    }
  }, 90_000);

  it('fits a 360 px wide phone screen', async () => {
    const { context, page } = await e2e.newPage();
    try {
      await page.setViewportSize({ width: 360, height: 740 });
      await submittedApplicant(e2e, page, 'pdf-phone@example.com');
      await page.goto('/completion');
      await expect
        .poll(() => pdfLink(page).getAttribute('href'), { timeout: 60_000 })
        .toMatch(/^\/api\/pdf\/file/);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBe(0);
      await pdfLink(page).scrollIntoViewIfNeeded();
      await shot(page, 'completion-pdf-360');
    } finally {
      await context.close();
    }
  }, 90_000);
});
