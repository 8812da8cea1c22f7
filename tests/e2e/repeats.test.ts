/**
 * End to end in Chromium: a format mistake is told when the applicant leaves the field (D149), and
 * an added honor can be removed (D148). The later one moves down, a
 * confirmation asks first when it holds answers, focus and an announcement follow, and a reload or a
 * second tab shows what the removing tab shows; at the maximum a sentence says so.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repeatText } from '../../contract/words';
import { signUpApplicant, startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 740 };
const WAIT = { timeout: 15_000 };

const honor = (page: Page, n: number) => page.getByRole('group', { name: `Honor ${n}` });
const honorName = (page: Page, n: number) =>
  honor(page, n).getByRole('textbox', { name: 'Honor or Award' });

/** The honors' names on screen, in order. */
const shownHonors = (page: Page) =>
  page
    .locator('[data-repeat="honors"] > fieldset')
    .evaluateAll((sets) =>
      sets.map((set) => (set.querySelector('input[type="text"]') as HTMLInputElement).value),
    );

/** What the server holds: the honors' count and names. */
async function stored(page: Page) {
  const counts = (await (await page.request.get('/api/add-another')).json()) as Record<
    string,
    number
  >;
  const profile = (await (await page.request.get('/api/profile')).json()) as {
    answer: Record<string, unknown>;
  };
  const names = ['honors_name', 'honors_2_name', 'honors_3_name'].map(
    (key) => profile.answer[key] ?? '',
  );
  return { count: counts.honors, names };
}

/** Axe, then screenshots at 1280 and 360 px (no sideways scrolling on the phone). */
async function check(page: Page, state: string, focus: Locator = honor(page, 2)) {
  await expectNoAxeViolations(page, `repeats: ${state}`);
  const centre = () => focus.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await centre();
  await shot(page, `repeats-${state}-1280`);
  await page.setViewportSize(PHONE);
  try {
    await centre();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `sideways scroll at 360 px: ${state}`).toBeLessThanOrEqual(0);
    await shot(page, `repeats-${state}-360`);
  } finally {
    await page.setViewportSize(DESKTOP);
  }
}

describe('removing an added honor (D148)', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 120_000);
  afterAll(async () => e2e?.close());

  it('tells a format mistake on leaving the field, and leaves "required" for later (D149)', async () => {
    const { context, page } = await e2e.newPage();
    try {
      await signUpApplicant(e2e, context.request, 'format-on-blur@example.com');
      await page.goto('/about');
      const parent = page.getByRole('group', { name: 'Parent or Legal Guardian 1' });
      const email = parent.getByRole('textbox', { name: 'Email Address' });
      await email.fill('dwhitfield@example');
      const mistake = page.getByText(
        'Parent or Legal Guardian 1: Please enter a valid email address',
      );
      expect(await mistake.count()).toBe(0); // not while typing
      await page.keyboard.press('Tab');
      await mistake.first().waitFor(WAIT);
      expect(await email.getAttribute('aria-invalid')).toBe('true');
      // A required question left empty says nothing yet.
      const first = page.getByRole('textbox', { name: 'First Name', exact: true }).first();
      await first.focus();
      await page.keyboard.press('Tab');
      expect(await first.getAttribute('aria-invalid')).toBeNull();
      await check(page, 'format-on-blur', email);
      await email.fill('dwhitfield@example.com');
      await expect.poll(() => mistake.count(), WAIT).toBe(0);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('moves the later honor down, asks first, keeps focus, and a reload and a second tab agree', async () => {
    const { context, page } = await e2e.newPage();
    try {
      await signUpApplicant(e2e, context.request, 'repeats-remove@example.com');
      await page.goto('/education');
      await page.getByRole('heading', { name: 'Your Education', level: 1 }).waitFor(WAIT);
      const add = page.getByRole('button', { name: 'Add Another Honor' });
      await add.click();
      await add.click();
      await honorName(page, 1).fill('Dean’s List');
      await honorName(page, 2).fill('Math Olympiad');
      await honorName(page, 3).fill('Science Fair');
      await expect.poll(async () => (await stored(page)).count, WAIT).toBe(3);
      await expect
        .poll(async () => (await stored(page)).names, WAIT)
        .toEqual(['Dean’s List', 'Math Olympiad', 'Science Fair']);
      expect(await page.getByRole('button', { name: /^Remove Honor/ }).count()).toBe(2);

      // Honor 2 holds an answer: a confirmation, Cancel first; Escape keeps everything.
      const remove2 = page.getByRole('button', { name: 'Remove Honor 2' });
      await remove2.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('alertdialog', { name: 'Remove Honor 2?' });
      await dialog.waitFor(WAIT);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent))
        .toBe(repeatText.cancel);
      await check(page, 'confirm', dialog);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached', ...WAIT });
      await expect.poll(() => remove2.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await shownHonors(page)).toEqual(['Dean’s List', 'Math Olympiad', 'Science Fair']);

      await remove2.click();
      await dialog.getByRole('button', { name: repeatText.confirm }).click();
      expect(await shownHonors(page)).toEqual(['Dean’s List', 'Science Fair']);
      await expect
        .poll(() => honor(page, 2).evaluate((el) => el === document.activeElement), WAIT)
        .toBe(true);
      await expect(
        page.getByRole('status').filter({ hasText: 'Honor 2 removed.' }).count(),
      ).resolves.toBe(1);
      await expect
        .poll(() => stored(page), WAIT)
        .toEqual({
          count: 2,
          names: ['Dean’s List', 'Science Fair', ''],
        });
      await check(page, 'removed');

      // A reload and a second tab show what this tab shows.
      await page.reload();
      await honor(page, 2).waitFor(WAIT);
      expect(await shownHonors(page)).toEqual(['Dean’s List', 'Science Fair']);
      const other = await context.newPage();
      await other.goto('/education');
      await honor(other, 2).waitFor(WAIT);
      expect(await shownHonors(other)).toEqual(['Dean’s List', 'Science Fair']);
      await other.close();

      // At the maximum a sentence says so; an empty honor goes without a question.
      await add.click();
      await add.click();
      await expect(add.count()).resolves.toBe(0);
      const note = page.getByText(repeatText.atMaximum(4));
      await note.waitFor(WAIT);
      await check(page, 'maximum', note);
      await page.getByRole('button', { name: 'Remove Honor 4' }).click();
      expect(await page.getByRole('alertdialog').count()).toBe(0);
      await expect.poll(() => add.evaluate((el) => el === document.activeElement), WAIT).toBe(true);
      await expect.poll(async () => (await stored(page)).count, WAIT).toBe(3);
    } finally {
      await context.close();
    }
  }, 240_000);
});
