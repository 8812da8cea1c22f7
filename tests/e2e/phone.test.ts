/**
 * End to end in Chromium: every form page and every account card on a 360 px phone, and the form
 * pages at 1280 px (D160). On each form page of a logged-in applicant with a
 * complete application: the chosen school's name ends before the lookup's clear "×"; after Save, the
 * save notice sits clear of the header and the "Saved" state covers no text at any scroll
 * position; the secondary actions (Add Another…, the international phone) look like the
 * page's secondary button, not like Save & Continue; the footer's links start where its text
 * starts. On each account card: its link-buttons start where its labels do. Axe on every screen.
 * Screenshots: tests/e2e/artifacts/phone-*.png.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autosaveText, buttons, lookupText, saveNoticeText } from '../../contract/words';
import { applicationDefinition } from '../../definitions';
import { accountText } from '../../src/features/account/accountText';
import { chromeText } from '../../src/chrome/chromeText';
import { validApplication } from '../definitions/fixtures';
import { signUpApplicant, startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';
import { buttonLook, overlaps, textLeft, textUnder, textUnderClearButtons } from './phoneLayout';

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 900 };
const WAIT = { timeout: 15_000 };

/** The footer's Help starts where the address does when they stack (a phone). */
async function footerFaults(page: Page): Promise<string[]> {
  const footer = page.getByRole('contentinfo');
  const address = footer.locator('address');
  const help = footer.getByRole('button', { name: chromeText.footer.help });
  const [addressBox, helpBox] = [await address.boundingBox(), await help.boundingBox()];
  if (!addressBox || !helpBox || helpBox.y < addressBox.y + addressBox.height) return [];
  const [from, to] = [await textLeft(address), await textLeft(help)];
  return Math.abs(from - to) > 1 ? [`footer: address text at ${from}, Help at ${to}`] : [];
}

/** Scrolls through the page a screen at a time; at each stop nothing readable is under `overlay`. */
async function coveredWhileScrolling(page: Page, overlay: Locator): Promise<string[]> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const step = (page.viewportSize()?.height ?? 700) * 0.8;
  const faults: string[] = [];
  for (let y = 0; y < height; y += step) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    for (const fault of await textUnder(overlay)) faults.push(`at ${Math.round(y)}: ${fault}`);
  }
  return faults;
}

describe('the applicant on a 360 px phone', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 120_000);
  afterAll(async () => e2e?.close());

  for (const [viewport, width] of [
    [PHONE, 360],
    [DESKTOP, 1280],
  ] as const) {
    it(`at ${width} px: every form page after Save`, async () => {
      const { context, page } = await e2e.newPage();
      try {
        await signUpApplicant(e2e, page.request, `phone-${width}@example.com`);
        expect((await page.request.put('/api/answer', { data: validApplication })).ok()).toBe(true);
        // A second parent shown, so a page holds an instance added with "Add Another".
        const added = { button_id: 'parent', num_components: 2 };
        expect((await page.request.put('/api/add-another', { data: added })).ok()).toBe(true);
        await page.setViewportSize(viewport);
        for (const formPage of applicationDefinition.pages) {
          const label = `${formPage.path} at ${width} px`;
          await page.goto(formPage.path);
          await page.getByRole('heading', { name: formPage.title, level: 1 }).waitFor(WAIT);

          expect.soft(await textUnderClearButtons(page, lookupText.clear), label).toEqual([]);
          const secondary = await buttonLook(
            page.getByRole('button', { name: buttons.save, exact: true }),
          );
          const primary = await buttonLook(
            page.getByRole('button', {
              name:
                formPage === applicationDefinition.pages.at(-1)
                  ? buttons.submit
                  : buttons.saveAndContinue,
            }),
          );
          expect(secondary).not.toBe(primary);
          const actions = page.getByRole('button', {
            name: /^(Add Another .*|Add an international phone number)$/,
          });
          for (const action of await actions.all())
            expect
              .soft(await buttonLook(action), `${label}: ${await action.innerText()}`)
              .toBe(secondary);
          expect.soft(await footerFaults(page), label).toEqual([]);

          await page.evaluate(() => window.scrollTo(0, 0));
          await page.getByRole('button', { name: buttons.save, exact: true }).click();
          // Save answers with its notice at the top of the page (D158), clear of the header.
          const notice = page.getByRole('status', { name: saveNoticeText.label });
          await notice.waitFor(WAIT);
          await page.waitForTimeout(400);
          await shot(page, `phone-${formPage.id}-saved-${width}`);
          expect
            .soft(
              await overlaps(notice, page.getByRole('banner')),
              `${label}: save notice under the header`,
            )
            .toBe(false);
          await expectNoAxeViolations(page, `${label} after Save`);
          // An edit autosaves: "Saved" shows under the buttons (a page with no text field has none).
          const field = page
            .locator('main :is(input[type=text], textarea):not([role=combobox]):not([inputmode])')
            .first();
          if ((await field.count()) > 0) {
            await field.pressSequentially('a');
            const saved = page
              .getByRole('status')
              .filter({ hasText: new RegExp(`^${autosaveText.saved}$`) });
            await saved.first().waitFor(WAIT);
            expect.soft(await coveredWhileScrolling(page, saved), label).toEqual([]);
          }
          await shot(page, `phone-${formPage.id}-${width}`, true);
        }
      } finally {
        await context.close();
      }
    }, 240_000);
  }

  it('at 360 px: every account card, its links where its text starts', async () => {
    const { context, page } = await e2e.newPage();
    try {
      await page.setViewportSize(PHONE);
      for (const [path, title] of [
        ['/signup', accountText.titles.signup],
        ['/confirm', accountText.titles.confirm],
        ['/login', accountText.titles.login],
        ['/forgot', accountText.titles.forgot],
        ['/reset', accountText.titles.reset],
      ] as const) {
        await page.goto(path);
        const card = page.getByRole('region', { name: title });
        await card.getByRole('heading', { name: title, level: 1 }).waitFor(WAIT);
        const labelLeft = await textLeft(card.locator('label').first());
        for (const link of await card.locator('form a, form button[type=button]').all()) {
          const box = await link.boundingBox();
          // Only what starts a line: a link beside another is placed by the row, not by the text.
          if (!box || box.x > labelLeft + 16) continue;
          expect
            .soft(
              await textLeft(link),
              `${path}: "${await link.innerText()}" starts where the labels do`,
            )
            .toBeCloseTo(labelLeft, 0);
        }
        expect.soft(await footerFaults(page), path).toEqual([]);
        await expectNoAxeViolations(page, `${path} at 360 px`);
        await shot(page, `phone-card${path.replace('/', '-')}-360`, true);
      }
    } finally {
      await context.close();
    }
  }, 120_000);
});
