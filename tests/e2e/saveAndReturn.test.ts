/**
 * End to end in Chromium: Save tells the truth (D158): the notice counts the answers of the page
 * that need attention, links to the first and takes focus, and leaving such a page says so on the
 * next; and sign-up brings the applicant to the page they were heading to, never off the
 * application (D159), also from the account menu and the welcome banner (D165).
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import { anonymousBanner, saveNoticeText } from '../../contract/words';
import { chromeText } from '../../src/chrome/chromeText';
import { validApplication } from '../definitions/fixtures';
import { codeIn, PASSWORD } from '../server/harness';
import { signUpApplicant, startE2E, type E2E } from './harness';
import { expectNoAxeViolations, screenshotTo } from './pageChecks';

const SHOTS = '/tmp/shots-applicant';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 740 };
const WAIT = { timeout: 15_000 };

/** Axe, then the screen as the applicant sees it at 1280 and at 360 px. */
async function look(page: Page, state: string): Promise<void> {
  await expectNoAxeViolations(page, state);
  await screenshotTo(page, path.join(SHOTS, `${state}-1280.png`));
  await page.setViewportSize(PHONE);
  try {
    await expectNoAxeViolations(page, `${state} at 360 px`);
    await screenshotTo(page, path.join(SHOTS, `${state}-360.png`));
  } finally {
    await page.setViewportSize(DESKTOP);
  }
}

const notice = (page: Page) => page.getByRole('status', { name: saveNoticeText.label });
const noticeText = async (page: Page) => ((await notice(page).textContent()) ?? '').trim();
const focusedId = (page: Page) =>
  page.evaluate(
    () => document.activeElement?.id || document.activeElement?.getAttribute('aria-label'),
  );

describe('Save and the way back (D158, D159)', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 120_000);
  afterAll(async () => e2e?.close());

  it('Save counts the answers of the page that need attention, links to the first, and takes focus', async () => {
    const { context, page } = await e2e.newPage();
    try {
      await signUpApplicant(e2e, page.request, 'saver@example.com');
      expect((await page.request.put('/api/answer', { data: validApplication })).status()).toBe(
        200,
      );
      await page.goto('/education');
      const math = page.locator('#sat_score_math');
      await math.waitFor(WAIT);
      await math.fill('575');
      const save = page.getByRole('button', { name: 'Save', exact: true });
      await save.click();
      const thisPage = saveNoticeText.thisPage;
      await expect
        .poll(() => noticeText(page))
        .toBe(`${serverMessages.saved} ${saveNoticeText.attention(1, thisPage)}`);
      // Focus went where the eye goes: to the notice, in view at the top, not the button below.
      await expect.poll(() => focusedId(page)).toBe(saveNoticeText.label);
      const box = await notice(page).boundingBox();
      expect(box && box.y >= 0 && box.y + box.height <= DESKTOP.height).toBe(true);
      await look(page, 'save-one-needs-attention');

      // The link takes the applicant to the first such answer.
      await notice(page).getByRole('link').click();
      await expect.poll(() => focusedId(page)).toBe('sat_score_math');

      await page.locator('#sat_score_reading_writing').fill('575');
      await save.click();
      await expect
        .poll(() => noticeText(page))
        .toBe(`${serverMessages.saved} ${saveNoticeText.attention(2, thisPage)}`);
      // Fixing one lowers the count.
      await math.fill('570');
      await expect
        .poll(() => noticeText(page))
        .toBe(`${serverMessages.saved} ${saveNoticeText.attention(1, thisPage)}`);

      // Leaving the page with an answer needing attention: the next page says so, and links back.
      await page.getByRole('button', { name: 'Save & Continue' }).click();
      await page.waitForURL('**/final-steps', WAIT);
      const onEducation = saveNoticeText.onPage('Your Education');
      await expect
        .poll(() => noticeText(page))
        .toBe(`${serverMessages.saved} ${saveNoticeText.attention(1, onEducation)}`);
      await expect.poll(() => focusedId(page)).toBe(saveNoticeText.label);
      await look(page, 'left-page-needs-attention');
      await notice(page).getByRole('link').click();
      await page.waitForURL('**/education#sat_score_reading_writing', WAIT);
      await expect.poll(() => focusedId(page)).toBe('sat_score_reading_writing');
      expect(await notice(page).count()).toBe(0);

      // All well: the saved sentence alone.
      await page.locator('#sat_score_reading_writing').fill('650');
      await save.click();
      await expect.poll(() => noticeText(page)).toBe(serverMessages.saved);
      await expect.poll(() => focusedId(page)).toBe(saveNoticeText.label);
      await look(page, 'saved');
    } finally {
      await context.close();
    }
  }, 300_000);

  it('an anonymous applicant heading to Your Education lands there after sign-up, a reload of Confirm, and login', async () => {
    const { context, page } = await e2e.newPage();
    const email = 'heading@example.com';
    const isAt = (pathname: string, next?: string) => (url: URL) =>
      url.pathname === pathname && (next === undefined || url.searchParams.get('next') === next);
    try {
      await page.goto('/about');
      await page.locator('#first_name').fill('Ines');
      await page
        .getByRole('navigation', { name: 'Application pages' })
        .getByRole('link', { name: 'Your Education' })
        .click();
      await page.waitForURL(isAt('/signup', '/education'), WAIT);
      await page.getByRole('heading', { name: 'Sign Up', level: 1 }).waitFor(WAIT);
      await page.getByLabel('Email Address').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Submit' }).click();

      await page.waitForURL(isAt('/confirm', '/education'), WAIT);
      await page.getByRole('heading', { name: 'Confirm Your Account', level: 1 }).waitFor(WAIT);
      await page.reload();
      await page.getByRole('heading', { name: 'Confirm Your Account', level: 1 }).waitFor(WAIT);
      expect(isAt('/confirm', '/education')(new URL(page.url()))).toBe(true);
      await page
        .getByLabel('Confirmation Code')
        .fill(codeIn(await e2e.server.mail(email, 'confirmation code')));
      await page.getByRole('button', { name: 'Submit' }).click();

      await page.waitForURL(isAt('/login', '/education'), WAIT);
      await page.getByRole('heading', { name: 'Log In', level: 1 }).waitFor(WAIT);
      await page.getByLabel('Email Address').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Submit' }).click();

      await page.waitForURL(isAt('/education'), WAIT);
      await page.getByRole('heading', { name: 'Your Education', level: 1 }).waitFor(WAIT);
      // What was typed on About You came along and was saved.
      await expect
        .poll(async () => {
          const profile = (await (await page.request.get('/api/profile')).json()) as {
            answer: Record<string, unknown>;
          };
          return profile.answer.first_name;
        })
        .toBe('Ines');
      await look(page, 'landed-on-education');
    } finally {
      await context.close();
    }
  }, 300_000);

  it('the account menu and the welcome banner carry the page the applicant is on, and a login from the banner comes back to it (D165)', async () => {
    const { context, page } = await e2e.newPage();
    const email = 'banner@example.com';
    const linkSearch = async (name: string) =>
      new URL(
        (await page.getByRole('link', { name, exact: true }).getAttribute('href')) ?? '',
        e2e.origin,
      ).search;
    const menuSearches = async () => {
      await page.getByRole('button', { name: chromeText.account.trigger }).click();
      const searches = [
        await linkSearch(chromeText.account.signIn),
        await linkSearch(chromeText.account.createAccount),
      ];
      await page.keyboard.press('Escape');
      return searches;
    };
    try {
      await signUpApplicant(e2e, page.request, email, { logIn: false });
      // On the default route nothing is carried: a login from it resumes on the last page (D113).
      await page.goto('/about');
      await page.locator('#first_name').waitFor(WAIT);
      expect(await linkSearch(anonymousBanner.loginLink)).toBe('');
      expect(await linkSearch(anonymousBanner.signupLink)).toBe('');
      expect(await menuSearches()).toEqual(['', '']);

      await page.goto('/final-steps');
      await page.getByRole('link', { name: anonymousBanner.loginLink }).waitFor(WAIT);
      const here = `?next=${encodeURIComponent('/final-steps')}`;
      expect(await linkSearch(anonymousBanner.signupLink)).toBe(here);
      expect(await linkSearch(anonymousBanner.loginLink)).toBe(here);
      expect(await menuSearches()).toEqual([here, here]);

      await page.getByRole('link', { name: anonymousBanner.loginLink }).click();
      await page.getByRole('heading', { name: 'Log In', level: 1 }).waitFor(WAIT);
      await page.getByLabel('Email Address').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.waitForURL((url) => url.pathname === '/final-steps', WAIT);
      await page.getByRole('heading', { name: 'Final Steps', level: 1 }).waitFor(WAIT);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('never sends anyone off the application: a hostile ?next= lands on the default page', async () => {
    const { context, page } = await e2e.newPage();
    const email = 'hostile@example.com';
    try {
      await signUpApplicant(e2e, page.request, email, { logIn: false });
      const origin = new URL(e2e.origin).origin;
      for (const next of [
        '//evil.example',
        'https://evil.example/education',
        'javascript:alert(1)',
      ]) {
        await context.clearCookies();
        await page.goto(`/login?next=${encodeURIComponent(next)}`);
        await page.getByRole('heading', { name: 'Log In', level: 1 }).waitFor(WAIT);
        await page.getByLabel('Email Address').fill(email);
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: 'Submit' }).click();
        await page.waitForURL((url) => url.pathname === '/about', WAIT);
        await page.locator('#first_name').waitFor(WAIT);
        expect(new URL(page.url()).origin, next).toBe(origin);
      }
    } finally {
      await context.close();
    }
  }, 300_000);
});
