/**
 * A phone photo over SPEC 5.6's limit, end to end in Chromium (D165): an applicant on Final Steps
 * picks a 3 MB JPEG whose EXIF block carries a GPS position; the browser offers a smaller copy and
 * previews it; Cancel sends nothing; "Upload the smaller copy" sends a copy within the limit that the
 * server converts like any file, and the stored bytes, read back through the applicant's own export
 * (GET /api/account/export), carry no EXIF. A 3 MB PDF is refused as before, naming the file. The
 * preview passes axe and is photographed at 1280 px and 360 px (tests/e2e/artifacts/photo-shrink-*).
 * On a 360 × 640 phone both of the offer's buttons are wholly in view and reachable by a tap, and
 * after the upload focus is on the file question, not on <body> (D198).
 */
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, documentMessages } from '../../contract';
import { documentText as fileText } from '../../contract/words';
import { namedFileProblem, shrinkText } from '../../src/features/documents/documentsText';
import { blobFromPage, signUpApplicant, startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';

const KEY = 'transcript_file';
/** A small phone's screen: the dialog's actions must stay in view on it. */
const PHONE = { width: 360, height: 640 };
const DESKTOP = { width: 1280, height: 900 };
const WAIT = { timeout: 10_000 };
/** Making the copy on the main thread of a loaded 2-core machine. */
const SHRINK_MS = 30_000;
/** A real conversion on a loaded 2-core machine. */
const CONVERSION_MS = 60_000;
/** The camera's name in the photo's EXIF: found in the photo, and never in what is stored. */
const CAMERA = 'TellTalePhoneCam';

/**
 * A photo as a phone takes one: a page of a transcript on a desk, with sensor noise, about 3 MB as
 * the browser encodes it.
 */
async function phonePhoto(page: Page): Promise<Buffer> {
  const bytes = await blobFromPage(page, async () => {
    const width = 2592;
    const height = 1944;
    const canvas = new OffscreenCanvas(width, height);
    const g = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
    const desk = g.createLinearGradient(0, 0, width, height);
    desk.addColorStop(0, '#8a6f52');
    desk.addColorStop(1, '#5e4a36');
    g.fillStyle = desk;
    g.fillRect(0, 0, width, height);
    g.fillStyle = '#f6f3ec';
    g.fillRect(300, 120, 1800, 1560);
    g.fillStyle = '#1d2a3a';
    g.font = '64px sans-serif';
    g.fillText('Unofficial transcript', 420, 280);
    g.font = '40px sans-serif';
    for (let row = 0; row < 24; row++)
      g.fillText(`Course ${row + 1}: grade ${'ABC'[row % 3]}`, 420, 400 + row * 52);
    // Sensor noise: what makes a phone photo heavy.
    const image = g.getImageData(0, 0, width, height);
    let seed = 7;
    for (let i = 0; i < image.data.length; i += 4) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const noise = (seed % 61) - 30;
      image.data[i] = (image.data[i] ?? 0) + noise;
      image.data[i + 1] = (image.data[i + 1] ?? 0) + noise;
      image.data[i + 2] = (image.data[i + 2] ?? 0) + noise;
    }
    g.putImageData(image, 0, 0);
    return canvas.convertToBlob({ type: 'image/jpeg', quality: 0.95 });
  });
  return withGpsExif(bytes);
}

/**
 * The JPEG with an APP1 "Exif" segment after its SOI, as a phone writes one: the camera's make in
 * IFD0 and a GPS IFD with latitude and longitude (little-endian TIFF).
 */
function withGpsExif(jpeg: Buffer): Buffer {
  const make = Buffer.from(`${CAMERA}\0`, 'latin1');
  const ifd0 = 8;
  const ifd0Size = 2 + 2 * 12 + 4;
  const gpsIfd = ifd0 + ifd0Size;
  const gpsSize = 2 + 4 * 12 + 4;
  const makeAt = gpsIfd + gpsSize;
  const latitudeAt = makeAt + make.length;
  const longitudeAt = latitudeAt + 24;
  const tiff = Buffer.alloc(longitudeAt + 24);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(ifd0, 4);
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(type, at + 2);
    tiff.writeUInt32LE(count, at + 4);
    tiff.writeUInt32LE(value, at + 8);
  };
  tiff.writeUInt16LE(2, ifd0);
  entry(ifd0 + 2, 0x010f, 2, make.length, makeAt); // Make
  entry(ifd0 + 14, 0x8825, 4, 1, gpsIfd); // GPSInfo
  tiff.writeUInt16LE(4, gpsIfd);
  entry(gpsIfd + 2, 0x0001, 2, 2, 0x4e); // GPSLatitudeRef "N"
  entry(gpsIfd + 14, 0x0002, 5, 3, latitudeAt); // GPSLatitude
  entry(gpsIfd + 26, 0x0003, 2, 2, 0x57); // GPSLongitudeRef "W"
  entry(gpsIfd + 38, 0x0004, 5, 3, longitudeAt); // GPSLongitude
  make.copy(tiff, makeAt);
  [44, 1, 28, 1, 3012, 100, 72, 1, 34, 1, 1056, 100].forEach((value, index) =>
    tiff.writeUInt32LE(value, latitudeAt + index * 4),
  );
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

/** The markers of a JPEG's segments up to its scan (APP1 is 0xE1). */
function segmentMarkers(jpeg: Uint8Array): number[] {
  expect([jpeg[0], jpeg[1]]).toEqual([0xff, 0xd8]);
  const markers: number[] = [];
  let at = 2;
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1] as number;
    markers.push(marker);
    if (marker === 0xda) break;
    at += 2 + (((jpeg[at + 2] as number) << 8) | (jpeg[at + 3] as number));
  }
  return markers;
}

describe('a phone photo over the limit in Chromium (D165)', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 120_000);
  afterAll(async () => e2e?.close());

  const question = (page: Page) => page.getByRole('group', { name: /Unofficial Transcript/ });
  const chooseButton = (page: Page) =>
    question(page).getByRole('button', { name: fileText.choose });
  const dialog = (page: Page) => page.getByRole('dialog', { name: shrinkText.title });

  async function choose(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
    const chooser = page.waitForEvent('filechooser');
    await chooseButton(page).click();
    await (await chooser).setFiles(file);
  }

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

  /**
   * Whether a control is wholly inside the viewport, and is what a tap at its centre and at each
   * of its corners reaches: not cut off by the dialog's scrolling nor below the fold.
   */
  function inView(locator: ReturnType<Page['locator']>) {
    return locator.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const inViewport =
        box.top >= 0 &&
        box.left >= 0 &&
        box.bottom <= window.innerHeight &&
        box.right <= window.innerWidth;
      const inset = 3;
      const points = [
        [box.left + box.width / 2, box.top + box.height / 2],
        [box.left + inset, box.top + inset],
        [box.right - inset, box.top + inset],
        [box.left + inset, box.bottom - inset],
        [box.right - inset, box.bottom - inset],
      ] as const;
      const onTop = points.every(([x, y]) => {
        const hit = document.elementFromPoint(x, y);
        return hit !== null && element.contains(hit);
      });
      return { inViewport, onTop };
    });
  }

  /** Every upload call the page sends from now on (method and address), to show nothing was sent. */
  function uploadRequests(page: Page): string[] {
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET' && /\/api\/(presigned-url|uploads|pdf\/)/.test(request.url()))
        sent.push(`${request.method()} ${request.url()}`);
    });
    return sent;
  }

  it('offers a smaller copy, previews it, sends nothing on Cancel, and uploads a copy within the limit without EXIF', async () => {
    const { context, page } = await e2e.newPage();
    const sent = uploadRequests(page);
    try {
      await signUpApplicant(e2e, page.request, 'photographer@example.com');
      await page.goto('/final-steps');
      await chooseButton(page).waitFor();
      const photo = {
        name: 'transcript-photo.jpeg',
        mimeType: 'image/jpeg',
        buffer: await phonePhoto(page),
      };
      // The photo is what a phone gives: about 3 MB, with its EXIF and GPS block.
      expect(photo.buffer.length).toBeGreaterThan(2.5 * MAX_FILE_BYTES);
      expect(photo.buffer.length).toBeLessThan(5 * MAX_FILE_BYTES);
      expect(segmentMarkers(photo.buffer)).toContain(0xe1);
      expect(photo.buffer.includes(CAMERA)).toBe(true);

      // Cancel: the dialog goes, nothing is sent, nothing is refused.
      await choose(page, photo);
      await dialog(page).waitFor(WAIT);
      const preview = dialog(page).getByRole('img', { name: shrinkText.previewAlt(photo.name) });
      await preview.waitFor({ timeout: SHRINK_MS });
      await dialog(page).getByRole('button', { name: shrinkText.cancel }).click();
      await expect.poll(() => dialog(page).count(), WAIT).toBe(0);
      expect(await question(page).getByRole('listitem').count()).toBe(0);
      await expect
        .poll(() => chooseButton(page).evaluate((button) => button === document.activeElement))
        .toBe(true);
      expect(sent).toEqual([]);
      expect(await stored(page)).toEqual({ file: undefined, status: 'NOT_ANSWERED' });

      // Again, and this time the smaller copy: previewed with both sizes, within the limit.
      await choose(page, photo);
      await preview.waitFor({ timeout: SHRINK_MS });
      // At most 2400 px wide, and not so small that a page stops being legible.
      const width = await preview.evaluate((image: HTMLImageElement) => image.naturalWidth);
      expect(width).toBeLessThanOrEqual(2400);
      expect(width).toBeGreaterThanOrEqual(1200);
      const caption = await dialog(page).locator('figcaption').textContent();
      expect(caption).toMatch(/^\d+(\.\d)? MB before, \d+(\.\d)? kB now$/);
      await expectNoAxeViolations(page, 'the smaller copy on offer');
      await shot(page, 'photo-shrink-preview-1280');
      // On a phone the copy is accepted where the applicant taps: both actions in view, unscrolled.
      await page.setViewportSize(PHONE);
      const copyName = 'transcript-photo.jpg';
      try {
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, 'sideways scroll at 360 px').toBeLessThanOrEqual(0);
        for (const name of [shrinkText.cancel, shrinkText.accept])
          expect(await inView(dialog(page).getByRole('button', { name })), name).toEqual({
            inViewport: true,
            onTop: true,
          });
        await expectNoAxeViolations(page, 'the smaller copy on offer at 360 px');
        await shot(page, 'photo-shrink-preview-360');
        await dialog(page).getByRole('button', { name: shrinkText.accept }).click();
        await expect.poll(() => dialog(page).count(), WAIT).toBe(0);

        // It goes through the upload chain and the server's conversion like any file.
        await question(page)
          .getByText(new RegExp(`^${copyName.replace('.', '\\.')} \\(\\d+(\\.\\d)? kB\\)$`))
          .waitFor({ timeout: CONVERSION_MS });
        // Focus went back to the file question, not to <body>, and stayed there through the upload.
        expect(
          await question(page).evaluate((element) => element.contains(document.activeElement)),
          `focus on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))}`,
        ).toBe(true);
        await shot(page, 'photo-shrink-uploaded-360');
      } finally {
        await page.setViewportSize(DESKTOP);
      }
      const { file, status } = await stored(page);
      expect(status).toBe('COMPLETED');
      expect(file?.file_name).toBe(copyName);
      expect(file?.file_size).toBeLessThanOrEqual(MAX_FILE_BYTES);
      await shot(page, 'photo-shrink-uploaded-1280');

      // The stored bytes, as the applicant's export hands them back: a JPEG, no APP1, no EXIF.
      const exported = await page.request.get('/api/account/export');
      expect(exported.status()).toBe(200);
      const entries = unzipSync(new Uint8Array(await exported.body()));
      const path = Object.keys(entries).find((name) => name.startsWith(`documents/${KEY}/`));
      expect(path, `export entries: ${Object.keys(entries).join(', ')}`).toBe(
        `documents/${KEY}/${copyName}`,
      );
      const bytes = entries[path as string] as Uint8Array;
      expect(bytes.length).toBe(file?.file_size);
      expect(bytes.length).toBeLessThanOrEqual(MAX_FILE_BYTES);
      expect(segmentMarkers(bytes)).not.toContain(0xe1);
      const text = Buffer.from(bytes);
      expect(text.includes('Exif')).toBe(false);
      expect(text.includes(CAMERA)).toBe(false);
    } finally {
      await context.close();
    }
  }, 240_000);

  it('makes a transparent screenshot a JPEG on white, not on black', async () => {
    const { context, page } = await e2e.newPage();
    try {
      await signUpApplicant(e2e, page.request, 'screenshot@example.com');
      await page.goto('/final-steps');
      await chooseButton(page).waitFor();
      // A PNG over the limit whose left half is fully transparent (as a cropped screenshot's margin).
      const bytes = await blobFromPage(page, async () => {
        const [width, height] = [1100, 800];
        const canvas = new OffscreenCanvas(width, height);
        const g = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
        const image = g.createImageData(width, height);
        let seed = 7;
        for (let i = 0; i < image.data.length; i += 4) {
          const x = (i / 4) % width;
          seed = (seed * 1103515245 + 12345) & 0x7fffffff;
          image.data[i] = seed & 0xff;
          image.data[i + 1] = (seed >> 8) & 0xff;
          image.data[i + 2] = (seed >> 16) & 0xff;
          image.data[i + 3] = x < width / 2 ? 0 : 255;
        }
        g.putImageData(image, 0, 0);
        return canvas.convertToBlob({ type: 'image/png' });
      });
      const name = 'portal-screenshot.png';
      expect(bytes.length).toBeGreaterThan(MAX_FILE_BYTES);
      await choose(page, { name, mimeType: 'image/png', buffer: bytes });
      const preview = dialog(page).getByRole('img', { name: shrinkText.previewAlt(name) });
      await preview.waitFor({ timeout: SHRINK_MS });
      // The copy's pixels in the once transparent half, as the preview draws them.
      const corner = await preview.evaluate(async (image: HTMLImageElement) => {
        await image.decode();
        const canvas = document.createElement('canvas');
        [canvas.width, canvas.height] = [image.naturalWidth, image.naturalHeight];
        const g = canvas.getContext('2d') as CanvasRenderingContext2D;
        g.drawImage(image, 0, 0);
        return Array.from(g.getImageData(10, 10, 1, 1).data.slice(0, 3));
      });
      for (const channel of corner) expect(channel).toBeGreaterThan(240);
    } finally {
      await context.close();
    }
  }, 240_000);

  it('refuses a 3 MB PDF as before and a photo no copy can be made of, naming each, and sends nothing', async () => {
    const { context, page } = await e2e.newPage();
    const sent = uploadRequests(page);
    try {
      await signUpApplicant(e2e, page.request, 'scanner@example.com');
      await page.goto('/final-steps');
      await chooseButton(page).waitFor();
      const name = 'school-report-scan.pdf';
      await choose(page, {
        name,
        mimeType: 'application/pdf',
        buffer: Buffer.alloc(3 * MAX_FILE_BYTES, 0x20),
      });
      const message = namedFileProblem(name, documentMessages.tooLarge);
      await question(page).getByRole('listitem').filter({ hasText: message }).waitFor(WAIT);
      expect(await question(page).getByRole('alert').textContent()).toBe(message);
      expect(await dialog(page).count()).toBe(0);
      await expectNoAxeViolations(page, 'a 3 MB PDF refused');
      await question(page).evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await shot(page, 'photo-shrink-pdf-refused-1280');
      await page.setViewportSize(PHONE);
      await question(page).evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await shot(page, 'photo-shrink-pdf-refused-360');
      await page.setViewportSize(DESKTOP);

      // A .png name on bytes that are no picture: the offer opens, no copy can be made, refused.
      const broken = 'broken-photo.png';
      await choose(page, {
        name: broken,
        mimeType: 'image/png',
        buffer: Buffer.alloc(MAX_FILE_BYTES + 512_000, 1),
      });
      const why = namedFileProblem(broken, `${documentMessages.tooLarge} ${shrinkText.failed}`);
      await question(page).getByRole('listitem').filter({ hasText: why }).waitFor(WAIT);
      await expect.poll(() => dialog(page).count(), WAIT).toBe(0);
      await expectNoAxeViolations(page, 'a photo no copy can be made of');
      expect(sent).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
