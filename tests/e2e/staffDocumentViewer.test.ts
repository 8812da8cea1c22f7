/**
 * End to end in Chromium: the staff view's document viewer (D174). A document opens beside the
 * application at 1280 px and over the page at 360 px; its heading takes focus, Close and Escape
 * return it to the document's link; the frame's address answers 200, a framable PDF, and the opening
 * is audited once. Headless Chromium may draw no PDF, so the frame is asserted, not its pixels.
 * Keys inside the frame go to the PDF viewer, Escape too: a visible hint above the frame, also its
 * accessible description, says so and points to Close. A reload gives the application with the
 * viewer closed: opening a document is an audited read, made again only when asked. axe and
 * screenshots at both widths.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../server/documentFiles';
import { submitFile } from '../server/documentUploads';
import { registeredClient } from '../server/harness';
import { enrolledStaff, type SignedInStaff } from '../server/staffHelpers';
import { signInStaff, startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';

const EMAIL = 'dean@northfield.edu';
const FILE = 'Transcript scan.png';
/** The document as the officer knows it: its question's label, not the file's name. */
const DOCUMENT = 'Unofficial Transcript';

describe('the staff document viewer in Chromium', () => {
  let e2e: E2E;
  let admin: SignedInStaff;
  let applicantId = '';

  beforeAll(async () => {
    e2e = await startE2E();
    const applicant = await registeredClient(e2e.server, 'ada@example.com');
    await applicant.put('/api/answer', { first_name: 'Ada', last_name: 'Lovelace' });
    const { settled } = await submitFile(e2e.server, applicant, FILE, png());
    expect(settled.status).toBe('COMPLETED');
    admin = await enrolledStaff(e2e.server, EMAIL, 'admin');
    const list = await admin.client.get('/staff/api/applications');
    applicantId = list.body.rows[0].id as string;
  }, 300_000);
  afterAll(async () => e2e?.close());

  const documentReads = async () =>
    (
      (
        await admin.client.get(
          `/staff/api/audit?what=application.document&applicant=${applicantId}&size=100`,
        )
      ).body.rows as unknown[]
    ).length;

  /** A signed-in admin's page on the applicant's application, its documents listed. */
  async function applicationPage() {
    const { page } = await e2e.newPage();
    await signInStaff(e2e, page, EMAIL, admin.secret);
    await page.goto(`/staff/applications/${applicantId}`);
    await page.getByRole('heading', { name: 'Documents' }).waitFor();
    return page;
  }

  /** Opens the document from its link; checks the region, its focus, its frame and its response. */
  async function openViewer(page: Page) {
    const framed = page.waitForResponse((response) =>
      response.url().endsWith(`/documents/transcript_file`),
    );
    await page.getByRole('link', { name: DOCUMENT }).click();
    const viewer = page.getByRole('region', { name: DOCUMENT });
    await viewer.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(DOCUMENT);
    const frame = viewer.locator('iframe');
    expect(await frame.getAttribute('src')).toBe(
      `/staff/api/applications/${applicantId}/documents/transcript_file`,
    );
    const response = await framed;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    expect(response.headers()['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(response.headers()['x-frame-options']).toBe('SAMEORIGIN');
    await expect.poll(() => page.frames().length).toBeGreaterThan(1);
    return viewer;
  }

  it('opens beside the application at 1280 and over it at 360; Close and Escape return focus', async () => {
    const { page } = await e2e.newPage();
    await signInStaff(e2e, page, EMAIL, admin.secret);
    await page.getByRole('status').filter({ hasText: '1 application' }).waitFor();
    await page.goto(`/staff/applications/${applicantId}`);
    await page.getByRole('heading', { name: 'Documents' }).waitFor();

    const before = await documentReads();
    let viewer = await openViewer(page);
    expect(await documentReads()).toBe(before + 1);
    // Beside the application: the panel starts right of the document's link.
    const link = page.getByRole('link', { name: DOCUMENT });
    const [panelBox, linkBox] = [await viewer.boundingBox(), await link.boundingBox()];
    expect(panelBox!.x).toBeGreaterThan(linkBox!.x + linkBox!.width);
    await expect.poll(() => viewer.getByRole('link', { name: 'Download' }).count()).toBe(1);
    await expect
      .poll(() => viewer.getByRole('link', { name: 'Open in a new tab' }).count())
      .toBe(1);
    await expectNoAxeViolations(page, 'document viewer at 1280');
    await shot(page, 'staff-document-viewer-1280');
    await viewer.getByRole('button', { name: 'Close' }).click();
    await viewer.waitFor({ state: 'detached' });
    await expect.poll(() => link.evaluate((a) => a === document.activeElement)).toBe(true);

    await page.setViewportSize({ width: 360, height: 800 });
    viewer = await openViewer(page);
    const narrow = await viewer.boundingBox();
    expect(narrow!.width).toBeGreaterThanOrEqual(359);
    await expectNoAxeViolations(page, 'document viewer at 360');
    await shot(page, 'staff-document-viewer-360');
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    await expect.poll(() => link.evaluate((a) => a === document.activeElement)).toBe(true);
    expect(await documentReads()).toBe(before + 2);
  }, 120_000);

  it('says, beside the frame and as its description, that Escape does not reach out of the PDF', async () => {
    const page = await applicationPage();
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      const viewer = await openViewer(page);
      const hint = viewer.getByText('Inside the document, keys go to the PDF viewer, Escape too');
      expect(await hint.isVisible(), `at ${width}`).toBe(true);
      // Above the frame, so it is read before the keys are lost.
      const [hintBox, frameBox] = [
        await hint.boundingBox(),
        await viewer.locator('iframe').boundingBox(),
      ];
      expect(hintBox!.y + hintBox!.height).toBeLessThanOrEqual(frameBox!.y);
      // The frame's accessible description: a screen reader says it on entering the frame.
      const described = await viewer
        .locator('iframe')
        .evaluate(
          (frame) =>
            document.getElementById(frame.getAttribute('aria-describedby') ?? '')?.textContent,
        );
      expect(described).toBe(await hint.textContent());
      await viewer.getByRole('button', { name: 'Close' }).click();
      await viewer.waitFor({ state: 'detached' });
    }
  }, 120_000);

  it('a reload with the viewer open gives the application back with the viewer closed, no read audited', async () => {
    const page = await applicationPage();
    await openViewer(page);
    const reads = await documentReads();
    const address = page.url();
    await page.reload();
    await page.getByRole('heading', { name: 'Documents' }).waitFor();
    expect(page.url()).toBe(address);
    await page.getByRole('link', { name: DOCUMENT }).waitFor();
    expect(await page.getByRole('region', { name: DOCUMENT }).count()).toBe(0);
    expect(page.frames()).toHaveLength(1);
    expect(await documentReads()).toBe(reads);
  }, 120_000);
});
