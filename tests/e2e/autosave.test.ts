/**
 * SECURITY.md REQ-R-1 and REQ-R-2 in Chromium, section 7 cases 31 and 32: autosave with its visible
 * state, a dropped network that ends in "Not saved — retrying" and then loses nothing, and two tabs
 * of one browser changing the same answer (a choice, never a silent overwrite) or different ones
 * (merged).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autosaveText } from '../../contract/words';
import { signUpApplicant, startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';

const status = (page: Page) => page.getByRole('status').filter({ hasText: /Sav|retrying/ });

describe('autosave and two tabs in Chromium', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 120_000);
  afterAll(async () => e2e?.close());

  async function loggedInContext(email: string) {
    const { context, page } = await e2e.newPage();
    await signUpApplicant(e2e, page.request, email);
    return { context, page };
  }

  const stored = async (page: Page) =>
    ((await (await page.request.get('/api/profile')).json()) as { answer: Record<string, unknown> })
      .answer;

  it('saves by itself, shows "Not saved — retrying" while offline, and loses nothing', async () => {
    const { context, page } = await loggedInContext('autosave@example.com');
    try {
      await page.goto('/about');
      await page.locator('#first_name').fill('Ada');
      await expect.poll(() => status(page).textContent()).toBe(autosaveText.saved);
      expect((await stored(page)).first_name).toBe('Ada');

      await context.setOffline(true);
      await page.locator('#last_name').fill('Lovelace');
      await expect
        .poll(() => status(page).textContent(), { timeout: 10_000 })
        .toBe(autosaveText.retrying);
      await shot(page, 'autosave-retrying');
      await context.setOffline(false);
      await expect
        .poll(() => status(page).textContent(), { timeout: 15_000 })
        .toBe(autosaveText.saved);
      expect((await stored(page)).last_name).toBe('Lovelace');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('two tabs: the same answer asks which to keep; a different answer is merged', async () => {
    const { context, page: tabA } = await loggedInContext('two-tabs@example.com');
    try {
      await tabA.goto('/about');
      const tabB = await context.newPage();
      await tabB.goto('/about');
      await tabB.locator('#first_name').waitFor();

      await tabA.locator('#first_name').fill('Ada');
      await expect.poll(() => status(tabA).textContent()).toBe(autosaveText.saved);

      // Tab B still shows the old page and changes the same answer.
      await tabB.locator('#first_name').fill('Augusta');
      const dialog = tabB.getByRole('dialog', { name: autosaveText.conflictTitle });
      await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(1);
      const conflict = dialog.getByRole('region', { name: 'First Name' });
      expect(await conflict.textContent()).toContain('Augusta');
      expect(await conflict.textContent()).toContain('Ada');
      expect((await stored(tabA)).first_name).toBe('Ada'); // nothing overwritten
      await expectNoAxeViolations(tabB, 'the conflict dialog');
      await shot(tabB, 'autosave-conflict');

      await conflict.getByRole('button', { name: autosaveText.keepMine }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      await expect
        .poll(async () => (await stored(tabA)).first_name, { timeout: 10_000 })
        .toBe('Augusta');

      // A different answer from the other tab: merged without a question.
      await tabA.locator('#middle_name').fill('King');
      await expect
        .poll(async () => (await stored(tabA)).middle_name, { timeout: 10_000 })
        .toBe('King');
      await tabB.locator('#preferred_name').fill('Ada');
      await expect
        .poll(async () => (await stored(tabA)).preferred_name, { timeout: 10_000 })
        .toBe('Ada');
      expect(await tabB.getByRole('dialog').count()).toBe(0);
      expect(await stored(tabA)).toMatchObject({ first_name: 'Augusta', middle_name: 'King' });

      // Tab A took in what tab B saved with its own next save, so it shows B's first name now.
      await expect.poll(() => tabA.locator('#first_name').inputValue()).toBe('Augusta');

      // Keep theirs: tab B changes the first name again; tab A, not yet told, changes it too.
      await tabB.locator('#first_name').fill('Ada Augusta');
      await expect
        .poll(async () => (await stored(tabA)).first_name, { timeout: 10_000 })
        .toBe('Ada Augusta');
      await tabA.locator('#first_name').fill('Countess');
      const dialogA = tabA.getByRole('dialog', { name: autosaveText.conflictTitle });
      await expect.poll(() => dialogA.count(), { timeout: 10_000 }).toBe(1);
      await dialogA.getByRole('button', { name: autosaveText.keepTheirs }).click();
      await expect.poll(() => tabA.locator('#first_name').inputValue()).toBe('Ada Augusta');
      expect((await stored(tabA)).first_name).toBe('Ada Augusta');
    } finally {
      await context.close();
    }
  }, 90_000);
});
