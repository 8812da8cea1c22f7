/**
 * End to end in Chromium: the service-user view (SPEC 2.9). A staff link minted with the CLI
 * function opens the whole application read-only, drawn by the print set; the token leaves the
 * address bar; an expired or tampered link shows the invalid-link screen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceMessages } from '../../contract';
import { requestServiceLink } from '../../server/cli/serviceToken';
import { configFromEnv } from '../../server/config';
import { validApplication } from '../definitions/fixtures';
import { hardText } from '../fixtures/hardText';
import { registeredClient } from '../server/harness';
import { startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';

describe('the service-user view in Chromium', () => {
  let e2e: E2E;
  let token: string;
  const email = 'avery@example.com';
  const essay = hardText(7000);

  async function mintToken(): Promise<string> {
    const config = configFromEnv({
      NODE_ENV: 'test',
      DATA_DIR: e2e.server.dataDir,
      PUBLIC_ORIGIN: 'http://app.test',
    });
    const minted = await requestServiceLink({ config, email, serverUrl: e2e.server.url });
    return new URL(minted.url).searchParams.get('service_token') as string;
  }

  beforeAll(async () => {
    e2e = await startE2E();
    const applicant = await registeredClient(e2e.server, email);
    const saved = await applicant.put('/api/answer', {
      ...validApplication,
      hs_ceeb: '461234',
      activity_name_select: 'ATHLETICS',
      activity_name: 'Varsity Rowing',
      conviction: 'Y',
      conviction_comment: essay,
    });
    expect(saved.status).toBe(200);
    token = await mintToken();
  }, 120_000);
  afterAll(async () => e2e?.close());

  it('shows every page read-only as text, with no chrome, and removes the token from the address', async () => {
    const { context, page } = await e2e.newPage();
    // The print stylesheet must reach the page under the strict CSP (a <style> element did not).
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to apply/i.test(message.text()))
        refused.push(message.text());
    });
    try {
      await page.goto(`/?service_token=${encodeURIComponent(token)}`);
      await page.getByRole('heading', { name: 'About You' }).waitFor();
      expect(page.url()).not.toContain('service_token');
      const text = await page.locator('main').innerText();
      for (const expected of [
        'Your Education',
        'Final Steps',
        'Avery',
        'Female',
        'U.S. Citizen',
        '***-**-6789',
        'Northfield Regional High School (Ceeb: 461234)',
        'Varsity Rowing',
        '[X]',
        'Yes, I waive my right to review it',
      ])
        expect(text).toContain(expected);
      expect(text).not.toContain('123-45-6789');
      expect(
        await page.locator('input, select, textarea, button, nav, footer, header').count(),
      ).toBe(0);
      expect(await page.getByText('Apply Now to Enjoy:').count()).toBe(0);
      expect(refused).toEqual([]);
      // Styled: each label sits beside its value (the print set's grid), not run into it.
      const field = page.locator('[data-key="first_name"]');
      expect(await field.evaluate((element) => getComputedStyle(element).display)).toBe('grid');
      await expectNoAxeViolations(page, 'service view');
      await shot(page, 'service-view', true);
    } finally {
      await context.close();
    }
  });

  it('D79: survives a reload of the tab without the token ever back in the address', async () => {
    const { context, page } = await e2e.newPage();
    const addresses: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) addresses.push(frame.url());
    });
    try {
      await page.goto(`/?service_token=${encodeURIComponent(token)}`);
      await page.getByRole('heading', { name: 'About You' }).waitFor();
      await page.reload();
      await page.getByRole('heading', { name: 'About You' }).waitFor();
      expect(await page.locator('main').innerText()).toContain('Avery');
      expect(await page.locator('input, nav, header').count()).toBe(0);
      // The first load's own address held it; every address since (the replaced entry, the
      // reload) does not.
      expect(addresses.slice(1).every((address) => !address.includes('service_token'))).toBe(true);
      expect(page.url()).not.toContain('service_token');
      // Another tab (its own sessionStorage) opens the applicant app.
      const other = await context.newPage();
      await other.goto('/about');
      await other.locator('#first_name').waitFor();
      expect(await other.getByText('Avery').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('REQ-R-7: shows a 7,000-character essay character for character', async () => {
    const { context, page } = await e2e.newPage();
    try {
      await page.goto(`/?service_token=${encodeURIComponent(token)}`);
      const value = page.locator('[data-key="conviction_comment"] > :last-child');
      await value.waitFor();
      const shown = await value.evaluate((element) => element.textContent ?? '');
      expect(Buffer.from(shown, 'utf8').equals(Buffer.from(essay, 'utf8'))).toBe(true);
      // Spaces, tabs and line breaks are drawn as typed, not collapsed.
      expect(await value.evaluate((element) => getComputedStyle(element).whiteSpace)).toBe(
        'pre-wrap',
      );
    } finally {
      await context.close();
    }
  });

  it('shows the invalid-link screen for a tampered and for an expired link', async () => {
    const { context, page } = await e2e.newPage();
    try {
      const tampered = `${token.slice(0, -3)}${token.endsWith('AAA') ? 'BBB' : 'AAA'}`;
      await page.goto(`/?service_token=${encodeURIComponent(tampered)}`);
      await page.getByRole('heading', { name: serviceMessages.tokenInvalid }).waitFor();
      expect(page.url()).not.toContain('service_token');
      expect(await page.getByText('Avery').count()).toBe(0);
      await expectNoAxeViolations(page, 'invalid service link');
      await shot(page, 'service-link-invalid', true);

      const fresh = await mintToken();
      e2e.server.clock.advance(60 * 60 * 1000 + 1000);
      try {
        await page.goto(`/?service_token=${encodeURIComponent(fresh)}`);
        await page.getByRole('heading', { name: serviceMessages.tokenInvalid }).waitFor();
        // An expired link is forgotten: the tab's next load is the applicant app.
        await page.goto('/about');
        await page.locator('#first_name').waitFor();
      } finally {
        e2e.server.clock.advance(-(60 * 60 * 1000 + 1000));
      }
    } finally {
      await context.close();
    }
  });
});
