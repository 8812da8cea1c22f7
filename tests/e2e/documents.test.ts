/**
 * Documents end to end in Chromium (SPEC 4.4, 4.6, 5.6): an applicant on Final Steps uploads
 * a png, a jpeg, a pdf and a docx in turn through "Choose file", sees each one upload and convert (the
 * real conversion in the server's worker; the docx through the server's Chromium), sees it listed as
 * "name (size)", and deletes it through the Delete File modal; a tab switch is refused while a
 * conversion is waiting; a file the conversion refuses shows the failure toast; refused files never
 * leave the browser. Every state passes axe and is
 * photographed at 1280 px and 360 px (tests/e2e/artifacts/documents-*.png).
 *
 * To see the in-between states deterministically, the test holds the two slow steps with test-only
 * levers and no product code: the multipart POST with `page.route` (uploading), and the server's job
 * worker with its own stop()/start() (the conversion stays UNPROCESSED on the server, as when the
 * queue is busy, so the app keeps polling and shows it converting).
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentMessages } from '../../contract';
import { documentText as fileText, notices } from '../../contract/words';
import { namedFileProblem } from '../../src/features/documents/documentsText';
import { chromeText } from '../../src/chrome/chromeText';
import { docx, pdf, png } from '../server/documentFiles';
import { blobFromPage, signUpApplicant, startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';

const KEY = 'transcript_file';
const UPLOAD_TAB = 'Upload an unofficial transcript';
const OTHER_TAB = 'My school will send it';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 740 };
/** A real conversion on a loaded 2-core machine; the first docx also launches the server's Chromium. */
const CONVERSION_MS = 60_000;
/** Waits for the app and the server on a loaded machine. */
const WAIT = { timeout: 10_000 };

interface Upload {
  readonly name: string;
  readonly mimeType: string;
  readonly buffer: Buffer;
}

/** "name (size)" as docs/decisions/ D36 words it: 1 kB = 1024 bytes, one decimal at most. */
const listed = ({ name, buffer }: Upload) =>
  `${name} (${buffer.length < 1024 ? `${buffer.length} bytes` : `${Math.round(buffer.length / 102.4) / 10} kB`})`;

/** A real JPEG, as a phone camera would make one: encoded by the browser. */
async function browserJpeg(page: Page): Promise<Buffer> {
  const bytes = await blobFromPage(page, async () => {
    const canvas = new OffscreenCanvas(800, 600);
    const g = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
    const gradient = g.createLinearGradient(0, 0, 800, 600);
    gradient.addColorStop(0, '#f4efe6');
    gradient.addColorStop(1, '#c9d6e3');
    g.fillStyle = gradient;
    g.fillRect(0, 0, 800, 600);
    g.fillStyle = '#1d2a3a';
    g.font = '32px sans-serif';
    g.fillText('Unofficial transcript', 60, 90);
    for (let row = 0; row < 12; row++) g.fillRect(60, 140 + row * 34, 200 + ((row * 53) % 420), 10);
    return canvas.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
  });
  return bytes;
}

describe('documents in Chromium', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 120_000);
  afterAll(async () => e2e?.close());

  const queue = () => e2e.server.built.documents.queue;
  const question = (page: Page) => page.getByRole('group', { name: /Unofficial Transcript/ });
  const status = (page: Page) => question(page).getByRole('status');
  const chooseButton = (page: Page) =>
    question(page).getByRole('button', { name: fileText.choose });

  /** Final Steps, logged in as a new applicant, with the file question's code loaded. */
  async function finalSteps(email: string): Promise<{ page: Page; close: () => Promise<void> }> {
    const { context, page } = await e2e.newPage();
    await signUpApplicant(e2e, page.request, email);
    await page.goto('/final-steps');
    await chooseButton(page).waitFor();
    expect(await page.getByRole('tab', { selected: true }).textContent()).toBe(UPLOAD_TAB);
    return { page, close: () => context.close() };
  }

  /** The applicant clicks "Choose file" and picks the file in the browser's file chooser. */
  async function choose(page: Page, file: Upload): Promise<void> {
    const chooser = page.waitForEvent('filechooser');
    await chooseButton(page).click();
    await (await chooser).setFiles(file);
  }

  /** Axe, then screenshots at 1280 px and at 360 px (no sideways scrolling on the phone). */
  async function check(page: Page, state: string, focus: Locator = question(page)): Promise<void> {
    await expectNoAxeViolations(page, `documents: ${state}`);
    const centre = () => focus.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await centre();
    await shot(page, `documents-${state}-1280`);
    await page.setViewportSize(PHONE);
    try {
      await centre();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `sideways scroll at 360 px: ${state}`).toBeLessThanOrEqual(0);
      // The tabs share one row, so the chosen tab's underline is under it alone.
      const tops = await page
        .locator('[role=tab]')
        .evaluateAll((tabs) => tabs.map((tab) => Math.round(tab.getBoundingClientRect().top)));
      expect(new Set(tops).size, `tab rows at 360 px: ${state}`).toBe(1);
      await shot(page, `documents-${state}-360`);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  }

  /** What the server holds for the question: its document answer and its conversion status. */
  async function stored(page: Page) {
    const answers = (await (await page.request.get('/api/document-answer')).json()) as Record<
      string,
      { file_name: string; file_size: number }
    >;
    const conversion = (await (
      await page.request.get(`/api/pdf/document-answer/${KEY}`)
    ).json()) as { status: string };
    return { file: answers[KEY], status: conversion.status };
  }

  it('uploads a png, a jpeg, a pdf and a docx in turn, lists each as "name (size)" once converted, and deletes it', async () => {
    const { page, close } = await finalSteps('uploader@example.com');
    try {
      await check(page, 'no-file');
      const files: Upload[] = [
        { name: 'transcript.png', mimeType: 'image/png', buffer: png(320, 240) },
        { name: 'transcript-photo.jpg', mimeType: 'image/jpeg', buffer: await browserJpeg(page) },
        { name: 'transcript.pdf', mimeType: 'application/pdf', buffer: await pdf() },
        {
          name: 'My transcript 2025.docx',
          mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          buffer: await docx(['Unofficial transcript', 'Algebra II: A', 'Chemistry: B+']),
        },
      ];

      for (const [index, file] of files.entries()) {
        const first = index === 0;
        // Hold the multipart POST to the presigned address: the question shows the upload.
        let release: () => void = () => undefined;
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        await page.route('**/api/uploads', async (route) => {
          await held;
          await route.continue();
        });
        // Hold the server's job worker: the conversion waits, UNPROCESSED, until it starts again.
        await queue().stop();
        try {
          await choose(page, file);
          await expect
            .poll(() => status(page).textContent(), WAIT)
            .toBe(fileText.uploading(file.name));
          expect(await question(page).getAttribute('aria-busy')).toBe('true');
          expect(await chooseButton(page).isDisabled()).toBe(true);
          if (first) await check(page, 'uploading');
          release();
          await expect
            .poll(() => status(page).textContent(), WAIT)
            .toBe(fileText.converting(file.name));
          expect((await stored(page)).status).toBe('UNPROCESSED');
          if (first) {
            await check(page, 'converting');
            // SPEC 4.6: no tab switch while the conversion is unprocessed or in progress.
            await page.getByRole('tab', { name: OTHER_TAB }).click();
            const refused = page.getByRole('dialog', { name: notices.uploadInProgress.title });
            await refused.waitFor();
            expect(await refused.getByText(notices.uploadInProgress.text).count()).toBe(1);
            await check(page, 'tab-refused', refused);
            await refused.getByRole('button', { name: notices.uploadInProgress.close }).click();
            await expect.poll(() => refused.count(), WAIT).toBe(0);
            expect(await page.getByRole('tab', { selected: true }).textContent()).toBe(UPLOAD_TAB);
            expect(await (await page.request.get('/api/tabs')).json()).not.toMatchObject({
              transcript: 'counselor',
            });
            expect(await status(page).textContent()).toBe(fileText.converting(file.name));
          }
        } finally {
          release();
          queue().start();
          await page.unroute('**/api/uploads');
        }

        // The worker converts it; the app's 2 s poll sees COMPLETED and lists the file.
        const text = listed(file);
        await question(page).getByText(text, { exact: true }).waitFor({ timeout: CONVERSION_MS });
        expect(await question(page).getAttribute('aria-busy')).toBeNull();
        expect(await stored(page)).toEqual({
          file: { file_name: file.name, file_size: file.buffer.length },
          status: 'COMPLETED',
        });
        if (first) await check(page, 'present');

        // Delete File: Cancel keeps the file (first round), Delete removes it.
        const deleteButton = question(page).getByRole('button', {
          name: fileText.deleteLabel(file.name),
        });
        const dialog = page.getByRole('dialog', { name: notices.deleteFile.title });
        if (first) {
          await deleteButton.click();
          await dialog.waitFor();
          expect(await dialog.getByText(notices.deleteFile.text).count()).toBe(1);
          await check(page, 'delete-modal', dialog);
          await dialog.getByRole('button', { name: notices.deleteFile.cancel }).click();
          await expect.poll(() => dialog.count(), WAIT).toBe(0);
          expect(await question(page).getByText(text, { exact: true }).count()).toBe(1);
          expect((await stored(page)).file).toBeDefined();
        }
        await deleteButton.click();
        await dialog.getByRole('button', { name: notices.deleteFile.confirm, exact: true }).click();
        await chooseButton(page).waitFor();
        await expect.poll(() => dialog.count(), WAIT).toBe(0);
        expect(await question(page).getByText(text).count()).toBe(0);
        expect(await stored(page)).toEqual({ file: undefined, status: 'NOT_ANSWERED' });
        // Focus is back on the question's button, not lost with the Delete button.
        await expect
          .poll(
            () => chooseButton(page).evaluate((button) => button === document.activeElement),
            WAIT,
          )
          .toBe(true);
      }
      await check(page, 'deleted');
    } finally {
      await close();
    }
  }, 240_000);

  it('switching tab with a file present deletes the file and saves the tab (SPEC 4.6)', async () => {
    const { page, close } = await finalSteps('switcher@example.com');
    try {
      const file: Upload = {
        name: 'grades.pdf',
        mimeType: 'application/pdf',
        buffer: await pdf('Grades', 2),
      };
      await choose(page, file);
      await question(page).getByText(listed(file)).waitFor({ timeout: CONVERSION_MS });
      await page.getByRole('tab', { name: OTHER_TAB }).click();
      await expect
        .poll(async () => (await page.request.get('/api/tabs')).json(), WAIT)
        .toMatchObject({ transcript: 'counselor' });
      expect(await page.getByRole('tab', { selected: true }).textContent()).toBe(OTHER_TAB);
      expect(await question(page).count()).toBe(0);
      expect(await stored(page)).toEqual({ file: undefined, status: 'NOT_ANSWERED' });
      expect(await page.getByRole('dialog').count()).toBe(0);

      await page.getByRole('tab', { name: UPLOAD_TAB }).click();
      await chooseButton(page).waitFor();
      expect(await question(page).getByText(file.name).count()).toBe(0);
    } finally {
      await close();
    }
  }, 120_000);

  it('refuses a tab switch while the documents are still loading, even before their code has arrived (SPEC 4.6)', async () => {
    const { context, page } = await e2e.newPage();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      await signUpApplicant(e2e, page.request, 'early-tab@example.com');
      // The documents feature (upload chain, caches, modals) is a chunk of its own: hold it.
      await page.route('**/assets/DocumentsFeature-*.js', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto('/final-steps');
      await question(page)
        .getByRole('status')
        .filter({ hasText: fileText.loading })
        .waitFor({ timeout: 30_000 });
      await page.getByRole('tab', { name: OTHER_TAB }).click();
      const refused = page.getByRole('dialog', { name: notices.uploadInProgress.title });
      release();
      await refused.waitFor();
      await refused.getByRole('button', { name: notices.uploadInProgress.close }).click();
      expect(await page.getByRole('tab', { selected: true }).textContent()).toBe(UPLOAD_TAB);
      await chooseButton(page).waitFor();
      expect(await (await page.request.get('/api/tabs')).json()).not.toMatchObject({
        transcript: 'counselor',
      });
    } finally {
      release();
      await context.close();
    }
  }, 120_000);

  it('a file whose bytes are not its type fails: the "Error uploading file for Unofficial Transcript" toast; closing it deletes the conversion', async () => {
    const { page, close } = await finalSteps('mismatch@example.com');
    try {
      // PNG bytes named .pdf: the browser's checks pass, the server's sniffing refuses it.
      await choose(page, { name: 'transcript.pdf', mimeType: 'application/pdf', buffer: png() });
      const reason = namedFileProblem('transcript.pdf', documentMessages.contentMismatch);
      const toast = page
        .locator('li')
        .filter({ hasText: notices.uploadFailedWhy('Unofficial Transcript', reason) })
        .filter({ hasText: notices.errorTitle });
      await toast.waitFor({ timeout: CONVERSION_MS });
      // Focus in the toast holds its 5 s timer while it is checked (a keyboard user reading it).
      const closeToast = toast.getByRole('button', { name: chromeText.close });
      await closeToast.focus();
      await question(page).getByRole('listitem').filter({ hasText: reason }).waitFor();
      await chooseButton(page).waitFor();
      expect((await stored(page)).status).toBe('FAILED');
      await check(page, 'failed-toast');

      await closeToast.click();
      await expect.poll(async () => (await stored(page)).status, WAIT).toBe('NOT_ANSWERED');
      await expect.poll(() => toast.count(), WAIT).toBe(0);
      // The reason stays with the question until another file is chosen.
      expect(await question(page).getByRole('listitem').filter({ hasText: reason }).count()).toBe(
        1,
      );
      expect((await stored(page)).file).toBeUndefined();
    } finally {
      await close();
    }
  }, 120_000);

  it('refuses an empty file, a 33-character name, a PDF over 1 MB and a .txt with the SPEC 5.6 messages naming the file, and sends none of them', async () => {
    const { page, close } = await finalSteps('refused@example.com');
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET' && /\/api\/(presigned-url|uploads|pdf\/)/.test(request.url()))
        sent.push(`${request.method()} ${request.url()}`);
    });
    try {
      const refusals: [string, Upload, string][] = [
        [
          'empty',
          { name: 'empty.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(0) },
          documentMessages.empty,
        ],
        [
          'long-name',
          {
            name: `${'t'.repeat(29)}.pdf`,
            mimeType: 'application/pdf',
            buffer: await pdf(),
          },
          documentMessages.nameTooLong,
        ],
        [
          'too-large',
          // A photo over the limit is offered a smaller copy instead (D165, ./photoShrink.test.ts).
          { name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(1_048_577, 1) },
          documentMessages.tooLarge,
        ],
        [
          'wrong-type',
          { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('My grades') },
          documentMessages.wrongType,
        ],
      ];
      expect(refusals[1]?.[1].name).toHaveLength(33);
      for (const [state, file, sentence] of refusals) {
        // Each refusal names its file (D165).
        const message = namedFileProblem(file.name, sentence);
        await choose(page, file);
        // Listed with the question's errors, and announced (the alert).
        await question(page).getByRole('listitem').filter({ hasText: message }).waitFor();
        expect(await question(page).getByRole('alert').textContent()).toBe(message);
        expect(await chooseButton(page).getAttribute('aria-invalid')).toBe('true');
        if (state === 'empty' || state === 'long-name') await check(page, `refused-${state}`);
      }
      expect(sent).toEqual([]);
      expect(await stored(page)).toEqual({ file: undefined, status: 'NOT_ANSWERED' });

      // A good file afterwards clears the message and goes through.
      const good: Upload = {
        name: `${'t'.repeat(28)}.pdf`,
        mimeType: 'application/pdf',
        buffer: await pdf(),
      };
      await choose(page, good);
      await question(page).getByText(listed(good)).waitFor({ timeout: CONVERSION_MS });
      expect(await question(page).getByRole('listitem').count()).toBe(0);
    } finally {
      await close();
    }
  }, 120_000);
});
