/**
 * Toasts (SPEC 2.7) and the error summary: neither may cover the other. Box checks and the steps
 * the end-to-end files of the returning applicant share.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { documentText } from '../../contract/words';
import { png } from '../server/documentFiles';
import { validApplication } from '../definitions/fixtures';
import { PASSWORD } from '../server/harness';

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

const intersect = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * The toast is wholly inside the viewport, its box does not meet the summary's, and nothing is
 * drawn over it.
 */
export async function expectApart(page: Page, toast: Locator, label: string): Promise<void> {
  const viewport = page.viewportSize() ?? { width: 0, height: 0 };
  const toastBox = await toast.boundingBox();
  const summaryBox = await page.locator('#error-summary').boundingBox();
  expect(toastBox, `${label}: the toast is drawn`).not.toBeNull();
  expect(summaryBox, `${label}: the summary is drawn`).not.toBeNull();
  if (!toastBox || !summaryBox) return;
  console.info(
    `${label}: toast ${JSON.stringify(toastBox)}, summary ${JSON.stringify(summaryBox)}`,
  );
  expect(toastBox.y, `${label}: toast inside the viewport`).toBeGreaterThanOrEqual(0);
  expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(viewport.height);
  expect(intersect(toastBox, summaryBox), `${label}: toast and summary apart`).toBe(false);
  await expectOnTop(toast, label);
}

/** At the toast's corners and centre the topmost element is the toast: nothing is drawn over it. */
export async function expectOnTop(toast: Locator, label: string): Promise<void> {
  const onTop = await toast.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return [
      [box.left + 4, box.top + 4],
      [box.right - 4, box.top + 4],
      [box.left + box.width / 2, box.top + box.height / 2],
      [box.left + 4, box.bottom - 4],
      [box.right - 4, box.bottom - 4],
    ].every(([x, y]) => element.contains(document.elementFromPoint(x ?? 0, y ?? 0)));
  });
  expect(onTop, `${label}: nothing drawn over the toast`).toBe(true);
}

/** The transcript chooseTranscriptOnFinalSteps picks (failures name it, D165). */
export const TRANSCRIPT_NAME = 'transcript.pdf';

/** Goes to Final Steps by the page navigation and chooses a transcript (a PNG named .pdf). */
export async function chooseTranscriptOnFinalSteps(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Application pages' })
    .getByRole('link', { name: /Final Steps/ })
    .click();
  await page.waitForURL('**/final-steps');
  const chooser = page.waitForEvent('filechooser');
  await page
    .getByRole('group', { name: /Unofficial Transcript/ })
    .getByRole('button', { name: documentText.choose })
    .click();
  await (
    await chooser
  ).setFiles({ name: TRANSCRIPT_NAME, mimeType: 'application/pdf', buffer: png() });
}

/**
 * What an earlier session saved: the whole application but the birth date, the entry term and the
 * waiver, left for the returning applicant.
 */
const {
  birth_date: _b,
  entry_term: _e,
  entry_term_desc: _ed,
  counselor_waiver_request: _w,
  counselor_waiver_request_desc: _wd,
  ...saved
} = validApplication;
export const savedBeforeReturning = saved;

/** Logs in from the login screen with the test password. */
export async function logIn(page: Page, email: string): Promise<void> {
  await page.getByRole('heading', { name: 'Log In', level: 1 }).waitFor();
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Submit' }).click();
}

/** Logs out from the account menu and waits for the login screen. */
export async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('button', { name: 'Log Out', exact: true }).click();
  await page.waitForURL('**/login');
}
