/**
 * Lookup end to end in Chromium (SPEC 4.9): the applicant finds a sample high school and an address
 * by typing, chooses them, and sees the related fields filled; axe passes with the list open, on a
 * desktop and on a 360 px phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';

describe('lookup in Chromium', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 120_000);
  afterAll(async () => e2e?.close());

  it('finds a sample high school, fills the school fields, and clears them again', async () => {
    const { context, page } = await e2e.newPage();
    try {
      await page.goto('/education');
      const school = page.getByRole('combobox', { name: 'Search for Your School' });
      await school.click();
      await school.pressSequentially('linc', { delay: 40 });
      const option = page.getByRole('option', {
        name: /Lincoln High School \(sample\).*Springfield/,
      });
      await option.waitFor();
      expect(await school.getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => page.getByRole('option', { name: 'Use: linc' }).count()).toBe(1);
      await school.scrollIntoViewIfNeeded();
      await shot(page, 'lookup-open-desktop');
      await expectNoAxeViolations(page, 'the open school list');

      await option.click();
      await expect
        .poll(() => page.getByRole('textbox', { name: 'School Address' }).inputValue())
        .toBe('1200 Prairie Avenue');
      expect(await school.inputValue()).toBe('Lincoln High School (sample)');
      expect(await page.getByRole('textbox', { name: 'City' }).first().inputValue()).toBe(
        'Springfield',
      );
      expect(await page.locator('#hs_country').inputValue()).toBe('USA');
      expect(await page.locator('#hs_state').inputValue()).toBe('Illinois');
      expect(await page.locator('#hs_zip').inputValue()).toBe('62704');

      await page.getByRole('button', { name: 'Clear' }).first().click();
      expect(await school.inputValue()).toBe('');
      expect(await page.getByRole('textbox', { name: 'School Address' }).inputValue()).toBe('');

      // A school that is not in the list: "Use: …" keeps the name and asks for the rest.
      await school.pressSequentially('Home Study Academy', { delay: 20 });
      await page.getByRole('option', { name: 'Use: Home Study Academy' }).click();
      await page.getByText('Enter your school information below.').waitFor();
      expect(await school.inputValue()).toBe('Home Study Academy');
      await expectNoAxeViolations(page, 'the school note');
    } finally {
      await context.close();
    }
  }, 90_000);

  it('finds an address whose city and state come from its ZIP code, on a 360 px phone', async () => {
    const { context, page } = await e2e.newPage();
    try {
      await page.setViewportSize({ width: 360, height: 740 });
      await page.goto('/about');
      // The combobox (not the plain input shown while its chunk loads).
      const address = page.locator('#address_line_1[role="combobox"]');
      await address.click();
      await address.pressSequentially('1600 penn', { delay: 40 });
      const option = page.getByRole('option', { name: /1600 Pennsylvania Avenue/ });
      await option.waitFor();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, 'horizontal scroll at 360 px with the list open').toBeLessThanOrEqual(0);
      await shot(page, 'lookup-open-phone');
      await expectNoAxeViolations(page, 'the open address list at 360 px');
      await option.click();
      await expect.poll(() => page.locator('#city').inputValue()).toBe('Washington');
      expect(await page.locator('#state').inputValue()).toBe('District of Columbia');
      expect(await page.locator('#zip').inputValue()).toBe('20500');
    } finally {
      await context.close();
    }
  }, 90_000);

  it('keeps focus, text and the search when typing starts before the combobox has loaded', async () => {
    const { context, page } = await e2e.newPage();
    try {
      // A slow network: the combobox chunk arrives after the applicant finished typing.
      await page.route('**/LookupCombobox-*.js', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 2500));
        await route.continue();
      });
      await page.goto('/about');
      const input = page.locator('#address_line_1');
      await input.click();
      expect(await input.getAttribute('role')).toBeNull();
      await input.pressSequentially('1600 penn', { delay: 30 });
      await page.getByRole('option', { name: /1600 Pennsylvania Avenue/ }).waitFor();
      expect(await input.getAttribute('role')).toBe('combobox');
      expect(await input.inputValue()).toBe('1600 penn');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('address_line_1');
    } finally {
      await context.close();
    }
  }, 90_000);
});
