/**
 * End to end in Chromium: toasts and the error summary never cover each other, on a
 * 360 × 740 phone and at 1280 px. A returning applicant with a failed submit behind logs in (the
 * summary and "You are logged in."), then a file the conversion refuses raises the failure toast
 * beside the summary. In each state: the toast is on screen, no box of one meets the other, axe.
 * Screenshots: tests/e2e/artifacts/toasts-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentMessages } from '../../contract';
import { errorSummary, notices } from '../../contract/words';
import { namedFileProblem } from '../../src/features/documents/documentsText';
import { signUpApplicant, startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';
import {
  chooseTranscriptOnFinalSteps,
  TRANSCRIPT_NAME,
  expectApart,
  expectOnTop,
  logIn,
  logOut,
  savedBeforeReturning,
} from './returningOverlap';

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 900 };
const WAIT = { timeout: 15_000 };
/** A real conversion on a loaded 2-core machine. */
const CONVERSION_MS = 60_000;

describe('toasts and the error summary', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 120_000);
  afterAll(async () => e2e?.close());

  for (const [viewport, name] of [
    [PHONE, '360'],
    [DESKTOP, '1280'],
  ] as const) {
    it(`at ${name} px: the login toast and the failed-upload toast beside the summary`, async () => {
      const email = `toasts-${name}@example.com`;
      const { context, page } = await e2e.newPage();
      try {
        // A failed submit behind: most answers saved, a few missing; Submit on Final Steps.
        await signUpApplicant(e2e, page.request, email);
        expect((await page.request.put('/api/answer', { data: savedBeforeReturning })).ok()).toBe(
          true,
        );
        await page.setViewportSize(viewport);
        await page.goto('/final-steps');
        await page.getByRole('button', { name: 'Submit' }).click();
        const summary = page.getByRole('alert').filter({ hasText: errorSummary.title });
        await summary.waitFor(WAIT);
        await page.waitForURL('**/about');
        await logOut(page);

        await logIn(page, email);
        await page.waitForURL('**/about', WAIT);
        await summary.waitFor(WAIT);
        const loggedIn = page.locator('li').filter({ hasText: 'You are logged in.' });
        await loggedIn.waitFor(WAIT);
        await page.waitForTimeout(400); // the toast's entry animation
        await expectApart(page, loggedIn, `${name} px, after login`);
        await shot(page, `toasts-login-${name}`);
        await expectNoAxeViolations(page, `/about after login at ${name} px`);

        // The file question on Final Steps: a PNG named .pdf, which the conversion refuses.
        await chooseTranscriptOnFinalSteps(page);
        const failed = page.locator('li').filter({
          hasText: notices.uploadFailedWhy(
            'Unofficial Transcript',
            namedFileProblem(TRANSCRIPT_NAME, documentMessages.contentMismatch),
          ),
        });
        await failed.waitFor({ timeout: CONVERSION_MS });
        await page.waitForTimeout(400);
        await expectApart(page, failed, `${name} px, failed upload`);
        await shot(page, `toasts-upload-failed-${name}`);
        // Scrolled back up to a summary taller than what the toast leaves free, something must give:
        // the toast stays on top (the summary never hides it) until it is closed or swiped away.
        await summary.scrollIntoViewIfNeeded();
        await expectOnTop(failed, `${name} px, failed upload, summary in view`);
        await expectNoAxeViolations(page, `/final-steps with the failure toast at ${name} px`);
        await shot(page, `toasts-upload-failed-summary-${name}`);
      } finally {
        await context.close();
      }
    }, 180_000);
  }
});
