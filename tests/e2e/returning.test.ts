/**
 * End to end in Chromium: the returning applicant (D77). Sign up, fill part, submit with errors,
 * reload, log out, log in (on the same and on another device), fix through the summary, submit. Each
 * step checks what such an applicant met: where focus goes, what the errors say, that the summary
 * stays, that the navigation does not bounce back, the document titles, the phone's first screen,
 * toasts and the summary apart, and axe. Screenshots: tests/e2e/artifacts/returning-*.png.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentMessages, serverMessages } from '../../contract';
import { errorSummary, notices, saveNoticeText } from '../../contract/words';
import { namedFileProblem } from '../../src/features/documents/documentsText';
import { messages } from '../../definitions';
import { codeIn, PASSWORD } from '../server/harness';
import { startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';
import {
  chooseTranscriptOnFinalSteps,
  TRANSCRIPT_NAME,
  expectApart,
  logIn,
  logOut,
  savedBeforeReturning,
} from './returningOverlap';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { SCREENSHOT_DIR } from './harness';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 740 };
const WAIT = { timeout: 15_000 };
const APP = 'Northfield College Application';
const title = (screen: string) => `${screen} – ${APP}`;
/** A real conversion on a loaded 2-core machine. */
const CONVERSION_MS = 60_000;
const UPLOAD_FAILED = notices.uploadFailedWhy(
  'Unofficial Transcript',
  namedFileProblem(TRANSCRIPT_NAME, documentMessages.contentMismatch),
);

/**
 * Screenshots at 1280 px and at 360 px (first screen), also kept under /tmp/shots-returning;
 * `inView` brings what is photographed into view at each width.
 */
async function shots(
  page: Page,
  name: string,
  inView: (page: Page) => Promise<unknown> = async () => undefined,
): Promise<void> {
  await mkdir('/tmp/shots-returning', { recursive: true });
  for (const [size, suffix] of [
    [DESKTOP, '1280'],
    [PHONE, '360'],
  ] as const) {
    await page.setViewportSize(size);
    await inView(page);
    await page.waitForTimeout(150);
    const file = `returning-${name}-${suffix}`;
    if (await shot(page, file))
      await copyFile(path.join(SCREENSHOT_DIR, `${file}.png`), `/tmp/shots-returning/${file}.png`);
  }
  await page.setViewportSize(DESKTOP);
}

/** The focused element: its id, tag and text, as a screen reader would land on it. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    return {
      id: active?.id ?? '',
      tag: active?.tagName.toLowerCase() ?? '',
      text: (active?.textContent ?? '').trim().slice(0, 80),
    };
  });

const summary = (page: Page) => page.getByRole('alert').filter({ hasText: errorSummary.title });

/** Fields marked invalid on the page now. */
const invalidIds = (page: Page) =>
  page.$$eval('[aria-invalid="true"]', (nodes) => nodes.map((node) => node.id));

/** The messages a question shows (its frame's error list). */
const questionErrors = (page: Page, id: string) =>
  page.evaluate((inputId) => {
    const frame = document.getElementById(inputId)?.closest('[data-state]');
    return [...(frame?.querySelectorAll(':scope > ul li') ?? [])].map((li) =>
      (li.textContent ?? '').trim(),
    );
  }, id);

/** A value set in the window survives only while the document does (no full page load). */
const markDocument = (page: Page) =>
  page.evaluate(() => ((window as unknown as { marker: number }).marker = 17));
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { marker?: number }).marker === 17);

/** The date of birth's question in view at 1280 and 360 px (its states, D121). */
const dateField = (page: Page, name: string) =>
  shots(page, name, (on) =>
    on
      .locator('#birth_date')
      .evaluate((input) => input.closest('[data-state]')?.scrollIntoView({ block: 'center' })),
  );

describe('the returning applicant in Chromium', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 120_000);
  afterAll(async () => e2e?.close());

  it('signs up, fills part, submits with errors, comes back, fixes through the summary and submits', async () => {
    const email = 'returning@example.com';
    const { context, page } = await e2e.newPage();
    const trail: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) trail.push(new URL(frame.url()).pathname);
    });
    page.on('console', (message) => trail.push(`console: ${message.text().slice(0, 200)}`));
    try {
      // ---- Sign up from the form, confirm, log in: focus lands on each new screen's heading.
      await page.goto('/about');
      await page.locator('#first_name').fill('Rowan');
      expect(await page.title()).toBe(title('About You'));
      // Save: the way back after login (D159) is this page.
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/signup');
      await expect.poll(() => page.title()).toBe(title('Sign Up'));
      await expect.poll(async () => (await focused(page)).text).toBe('Sign Up');
      await page.getByLabel('Email Address').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Submit' }).click();

      await page.waitForURL((url) => url.pathname === '/confirm');
      await expect.poll(async () => (await focused(page)).text).toBe('Confirm Your Account');
      expect(await page.title()).toBe(title('Confirm Your Account'));
      await expectNoAxeViolations(page, '/confirm with focus on its heading');
      await page.getByLabel('Confirmation Code').fill(codeIn(await e2e.server.mail(email, 'code')));
      await page.getByRole('button', { name: 'Submit' }).click();

      await page.waitForURL((url) => url.pathname === '/login');
      await expect.poll(async () => (await focused(page)).text).toBe('Log In');
      expect(await page.title()).toBe(title('Log In'));
      // Most of the application arrives through the API (what an earlier session saved), leaving
      // the birth date, the entry term and the waiver for the applicant.
      const api = page.request;
      expect(
        (
          await api.post('/public/login', { data: { username: email, password: PASSWORD } })
        ).status(),
      ).toBe(200);
      expect(
        (
          await api.put('/api/answer', { data: { ...savedBeforeReturning, first_name: 'Rowan' } })
        ).status(),
      ).toBe(200);
      expect((await api.post('/api/logout')).status()).toBe(200);

      await logIn(page, email);
      await page.waitForURL('**/about');
      await expect.poll(async () => (await focused(page)).tag, WAIT).toBe('h1');
      expect((await focused(page)).text).toBe('About You');
      expect(await page.title()).toBe(title('About You'));
      await expectNoAxeViolations(page, '/about after login');
      await shot(page, 'returning-about-after-login');

      // ---- Fill part: an impossible date, typed as digits (the slashes come by themselves). It
      // stays visible; the answer saved is empty.
      const birthDate = page.locator('#birth_date');
      await dateField(page, 'date-empty');
      await birthDate.click();
      await birthDate.pressSequentially('0230');
      expect(await birthDate.inputValue()).toBe('02/30');
      await expectNoAxeViolations(page, 'a half-typed date');
      await dateField(page, 'date-half-typed');
      await birthDate.pressSequentially('2008');
      expect(await birthDate.inputValue()).toBe('02/30/2008');
      // No error yet: before the first submit, errors wait for the page to be left or saved.
      expect(await invalidIds(page)).toEqual([]);

      // ---- Save & Continue: the next page opens without errors the applicant has not earned, the
      // banner is gone, focus is on the notice that the page left has an answer needing attention
      // (D158: the impossible date).
      expect(await page.getByRole('heading', { name: 'Welcome Back!' }).count()).toBe(1);
      await page.getByRole('button', { name: 'Save & Continue' }).click();
      await page.waitForURL('**/education');
      await expect
        .poll(async () => (await focused(page)).text)
        .toBe(
          `${serverMessages.saved} ${saveNoticeText.attention(1, saveNoticeText.onPage('About You'))}`,
        );
      expect(await page.title()).toBe(title('Your Education'));
      expect(await invalidIds(page)).toEqual([]);
      expect(await page.locator('[data-state="invalid"]').count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Welcome Back!' }).count()).toBe(0);
      await expectNoAxeViolations(page, '/education after Save & Continue');
      await shot(page, 'returning-education-no-unearned-errors');

      // Previous: About You shows the errors of the page left, the date's own message among them,
      // and the date as it was typed, though the field is a new one.
      await page.getByRole('button', { name: 'Previous' }).click();
      await page.waitForURL('**/about');
      await expect
        .poll(() => questionErrors(page, 'birth_date'))
        .toEqual([messages.birthDate.invalid]);
      expect(await birthDate.inputValue()).toBe('02/30/2008');
      await expectNoAxeViolations(page, 'an impossible date after another page and back');
      await dateField(page, 'date-invalid');

      // ---- The navigation goes where it is clicked, without a page load.
      await markDocument(page);
      await page
        .getByRole('navigation', { name: 'Application pages' })
        .getByRole('link', { name: /Final Steps/ })
        .click();
      await page.waitForURL('**/final-steps');
      expect(await sameDocument(page)).toBe(true);
      await expect
        .poll(async () => (await focused(page)).text)
        .toBe(
          `${serverMessages.saved} ${saveNoticeText.attention(1, saveNoticeText.onPage('About You'))}`,
        );
      expect(await page.getByRole('heading', { name: 'Final Steps', level: 1 }).count()).toBe(1);

      // ---- Submit with errors: the summary, focused, with the date's message and no internal keys.
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.waitForURL('**/about');
      await expect.poll(() => summary(page).count()).toBe(1);
      await expect.poll(async () => (await focused(page)).id).toBe('error-summary');
      const summaryText = await summary(page).innerText();
      expect(summaryText).toContain(messages.birthDate.invalid);
      expect(summaryText).toContain(messages.entryTerm);
      expect(summaryText).toContain(messages.waiver);
      expect(await invalidIds(page)).toContain('birth_date');
      await expectNoAxeViolations(page, '/about with the summary after submit');
      await shots(page, 'summary-after-submit');

      // ---- A reload: the summary and the invalid questions are there at once, and the date as it
      // was typed with its own message (saved empty, SPEC 5.7; kept for the tab, D121).
      await page.reload();
      await expect.poll(() => summary(page).count(), WAIT).toBe(1);
      expect(await invalidIds(page)).toContain('birth_date');
      expect(await birthDate.inputValue()).toBe('02/30/2008');
      expect(await questionErrors(page, 'birth_date')).toEqual([messages.birthDate.invalid]);
      expect(await summary(page).innerText()).toContain(messages.birthDate.invalid);
      expect(await page.title()).toBe(title('About You'));
      await expectNoAxeViolations(page, '/about after a reload');
      await dateField(page, 'date-invalid-after-reload');

      // ---- Meanwhile on a phone, a file the conversion refuses: its toast names the question by
      // its label, not its key, and the phone is put away before the toast goes.
      const failedToast = (on: Page) =>
        on.locator('li').filter({ hasText: UPLOAD_FAILED }).filter({ hasText: notices.errorTitle });
      const phone = await e2e.browser.newContext({ baseURL: e2e.origin, viewport: PHONE });
      try {
        const device = await phone.newPage();
        await device.goto('/login');
        await logIn(device, email);
        await device.waitForURL('**/about');
        // (An address typed in would resume on the last page, /about: SPEC 2.2.)
        await chooseTranscriptOnFinalSteps(device);
        await failedToast(device).waitFor({ timeout: CONVERSION_MS });
        expect(await device.getByText('transcript_file').count()).toBe(0);
      } finally {
        await phone.close();
      }

      // ---- Log out, and in again on a phone: the summary at once, no toast over it, and no
      // toast of the earlier session's failed upload. The logout forgot the typed date: the
      // answer saved is empty, so now it is missing.
      await logOut(page);
      await page.setViewportSize(PHONE);
      await logIn(page, email);
      // Resumed where the phone left off (SPEC 2.2), once.
      await page.waitForURL('**/final-steps', WAIT);
      await expect.poll(() => summary(page).count(), WAIT).toBe(1);
      expect(await page.locator('[aria-invalid="true"]').count()).toBeGreaterThan(0);
      expect(await summary(page).innerText()).toContain(messages.birthDate.required);
      const loggedInToast = page.locator('li').filter({ hasText: 'You are logged in.' });
      await loggedInToast.waitFor();
      await page.waitForTimeout(400); // the toast's entry animation
      await expectApart(page, loggedInToast, 'login at 360 px');
      await page.waitForTimeout(1_500);
      expect(await failedToast(page).count()).toBe(0);
      await expectNoAxeViolations(page, '/about after login at 360 px');
      if (await shot(page, 'returning-login-phone-toast'))
        await copyFile(
          path.join(SCREENSHOT_DIR, 'returning-login-phone-toast.png'),
          '/tmp/shots-returning/returning-login-phone-toast-360.png',
        );
      await page.setViewportSize(DESKTOP);

      // ---- The navigation does not bounce back.
      await markDocument(page);
      await page
        .getByRole('navigation', { name: 'Application pages' })
        .getByRole('link', { name: /Your Education/ })
        .click();
      await page.waitForURL('**/education');
      // A bounce-back came within a second or two: the address stays for 3 s.
      for (let waited = 0; waited < 3_000; waited += 250) {
        expect(new URL(page.url()).pathname).toBe('/education');
        await page.waitForTimeout(250);
      }
      expect(await sameDocument(page)).toBe(true);
      // Validating: this page's invalid question shows at once (its summary too).
      expect(await invalidIds(page)).toContain('entry_term');

      // ---- Fix through the summary: the whole question comes into view, its input focused.
      await summary(page).getByRole('link', { name: messages.birthDate.required }).click();
      await page.waitForURL('**/about#birth_date');
      await expect.poll(async () => (await focused(page)).id).toBe('birth_date');
      const inView = await page.evaluate(() => {
        const input = document.getElementById('birth_date') as HTMLElement;
        const frame = input.closest('[data-state]') as HTMLElement;
        const label = frame.querySelector('label') as HTMLElement;
        const errors = frame.querySelector('ul') as HTMLElement;
        const visible = (node: HTMLElement) => {
          const box = node.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        };
        return { label: visible(label), errors: visible(errors), input: visible(input) };
      });
      expect(inView).toEqual({ label: true, errors: true, input: true });
      await shots(page, 'summary-link-question');
      // An impossible date, typed while validating: the question's own message at once, and what
      // was typed stays in the field.
      expect(await birthDate.inputValue()).toBe('');
      await birthDate.pressSequentially('02302008');
      await expect
        .poll(() => questionErrors(page, 'birth_date'))
        .toEqual([messages.birthDate.invalid]);
      expect(await birthDate.inputValue()).toBe('02/30/2008');
      expect(await summary(page).innerText()).toContain(messages.birthDate.invalid);
      await expectNoAxeViolations(page, 'an impossible date');
      await shots(page, 'impossible-date');
      // Reached by the keyboard (Shift+Tab from Gender): photographed to look at its focus ring.
      await page.locator('#gender').focus();
      await page.keyboard.press('Shift+Tab');
      await expect.poll(async () => (await focused(page)).id).toBe('birth_date');
      await shot(page, 'returning-date-keyboard-focus');
      await birthDate.fill('');
      await birthDate.pressSequentially('03152008');
      await expect.poll(() => questionErrors(page, 'birth_date')).toEqual([]);
      expect(await birthDate.inputValue()).toBe('03/15/2008');
      await expectNoAxeViolations(page, 'a valid date');
      await dateField(page, 'date-valid');
      expect(await summary(page).innerText()).not.toContain('Birth');

      await summary(page).getByRole('link', { name: messages.entryTerm }).click();
      await page.waitForURL('**/education#entry_term');
      await expect.poll(async () => (await focused(page)).id).toBe('entry_term');
      await page.locator('#entry_term').selectOption({ index: 1 });
      await summary(page).getByRole('link', { name: messages.waiver }).click();
      await page.waitForURL('**/final-steps#counselor_waiver_request');
      // The earlier session's failed upload is explained on its question (no toast came up).
      await page
        .getByRole('group', { name: /Unofficial Transcript/ })
        .locator('li')
        .filter({ hasText: documentMessages.contentMismatch })
        .waitFor(WAIT);
      expect(await failedToast(page).count()).toBe(0);
      await expect.poll(async () => (await focused(page)).tag).toBe('input');
      await page.getByRole('radio', { name: 'Yes, I waive my right to review it' }).check();
      await expect.poll(() => summary(page).count()).toBe(0);

      await page.getByRole('button', { name: 'Submit' }).click();
      await page.waitForURL('**/completion', WAIT);
      await expect.poll(() => page.title()).toBe(title('Application Submitted'));
      await expectNoAxeViolations(page, '/completion');
    } catch (error) {
      console.log(trail.join('\n'));
      await shot(page, 'returning-failure', true);
      throw error;
    } finally {
      await context.close();
    }
  }, 300_000);

  it('on a 360 × 740 phone the page steps take one row and the first question is on the first screen', async () => {
    const { context, page } = await e2e.newPage();
    try {
      await page.setViewportSize(PHONE);
      await page.goto('/about');
      const steps = page.getByRole('navigation', { name: 'Application pages' }).getByRole('link');
      await steps.first().waitFor();
      const tops = await steps.evaluateAll((links) =>
        links.map((link) => Math.round(link.getBoundingClientRect().top)),
      );
      expect(tops).toHaveLength(3);
      expect(new Set(tops).size).toBe(1);
      const first = await page.locator('#first_name').boundingBox();
      expect(first).not.toBeNull();
      expect((first?.y ?? Infinity) + (first?.height ?? 0)).toBeLessThanOrEqual(PHONE.height);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page, '/about at 360 px');
      await shots(page, 'first-screen');

      // The date field, reached by the keyboard (Shift+Tab from Gender), shows the app's focus ring.
      await page.setViewportSize(DESKTOP);
      await page.locator('#gender').focus();
      await page.keyboard.press('Shift+Tab');
      await expect
        .poll(() =>
          page.locator('#birth_date').evaluate((input) => getComputedStyle(input).boxShadow),
        )
        .toMatch(/0px 0px 0px 3px/);
      await page.locator('#birth_date').scrollIntoViewIfNeeded();
      await shot(page, 'returning-date-focus');
    } finally {
      await context.close();
    }
  }, 60_000);
});
