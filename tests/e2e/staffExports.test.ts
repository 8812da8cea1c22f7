/**
 * End to end in Chromium: an admin chooses the CSV's columns (D168) in the dialog, with the
 * keyboard where a keyboard user would, and the exported file holds just those; then "Download
 * PDFs (N)" builds the ZIP in the worker (D169), its progress announced (again after a reload,
 * D176), and the ZIP downloads with
 * the PDFs named for people. axe at 1280 and 768 px; screenshots at 1280 and 360 px.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseCsv } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredClient } from '../server/harness';
import { enrolledStaff } from '../server/staffHelpers';
import { signInStaff, startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';

const EMAIL = 'dean@northfield.edu';

/** axe at 1280 and 768 px, screenshots at 1280 and 360 px; back to 1280 after. */
async function checkView(page: Page, name: string) {
  await expectNoAxeViolations(page, `${name} at 1280`);
  await shot(page, `staff-${name}-1280`);
  await page.setViewportSize({ width: 768, height: 900 });
  await expectNoAxeViolations(page, `${name} at 768`);
  await page.setViewportSize({ width: 360, height: 800 });
  await shot(page, `staff-${name}-360`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('the CSV columns and the ZIP of PDFs in Chromium', () => {
  let e2e: E2E;
  let secret = '';

  beforeAll(async () => {
    e2e = await startE2E();
    for (const [email, first, last] of [
      ['ada@example.com', 'Ada', 'Lovelace'],
      ['grace@example.com', 'Grace', 'Hopper'],
    ] as const) {
      const applicant = await registeredClient(e2e.server, email);
      await applicant.put('/api/answer', { first_name: first, last_name: last });
    }
    ({ secret } = await enrolledStaff(e2e.server, EMAIL, 'admin'));
  }, 300_000);
  afterAll(async () => e2e?.close());

  it('chooses two columns, exports them, resets; downloads the filtered set as one ZIP of named PDFs', async () => {
    const { page } = await e2e.newPage();
    await signInStaff(e2e, page, EMAIL, secret);
    await page.getByRole('status').filter({ hasText: '2 applications' }).waitFor();

    // The dialog: find a column, clear everything, tick two with the keyboard, save.
    await page.getByRole('button', { name: 'CSV columns' }).click();
    const dialog = page.getByRole('dialog', { name: 'Columns of the CSV' });
    await dialog.getByRole('button', { name: 'Clear all' }).click();
    await checkView(page, 'csv-columns');
    await dialog.getByLabel('Find a column').fill('name');
    for (const label of [/^First Name/, /^Last Name/]) {
      await dialog.getByRole('checkbox', { name: label }).first().focus();
      await page.keyboard.press('Space');
    }
    await dialog.getByRole('button', { name: 'Save columns' }).click();
    await dialog.waitFor({ state: 'detached' });

    const exported = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const csv = await readFile((await (await exported).path()) as string, 'utf8');
    const [header] = parseCsv(csv, { bom: true }) as string[][];
    expect(header).toHaveLength(10 + 2);
    expect(header?.slice(-2)).toEqual(['First Name', 'Last Name']);

    await page.getByRole('button', { name: 'CSV columns' }).click();
    await dialog.getByRole('button', { name: 'Reset to all columns' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The PDFs of the filtered set: one, Hopper's.
    await page.getByLabel('Search by name, e-mail or reference').fill('hopper');
    await page.getByRole('status').filter({ hasText: '1 application' }).waitFor();
    await page.getByRole('button', { name: 'Download PDFs (1)' }).click();
    const ready = page.getByRole('link', { name: 'Download the ZIP (1 PDF)' });
    await ready.waitFor({ timeout: 120_000 });
    await checkView(page, 'pdf-zip');
    // A reload shows the same ZIP again (D176).
    await page.reload();
    await ready.waitFor({ timeout: 30_000 });
    const zipped = page.waitForEvent('download');
    await ready.click();
    const zip = unzipSync(new Uint8Array(await readFile((await (await zipped).path()) as string)));
    const names = Object.keys(zip);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^Hopper-Grace-[0-9A-F]{4}-[0-9A-F]{4}\.pdf$/);
  }, 300_000);
});
