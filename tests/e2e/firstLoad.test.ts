/**
 * D84 in Chromium: the first visit paints SPEC 2.2's loading state before any of the app's
 * JavaScript has arrived, and a logged-in page asks each of its first calls once, starting them
 * from the page itself rather than after the app's code has run.
 */
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_LOAD_PATHS } from '../../contract';
import { signUpApplicant, startE2E, type E2E } from './harness';
import { shot } from './pageChecks';

describe('the first load (D84)', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 120_000);
  afterAll(async () => e2e?.close());

  it('shows the loading state while the app is still on its way, at 360 px', async () => {
    const { context, page } = await e2e.newPage();
    try {
      await page.setViewportSize({ width: 360, height: 740 });
      // Hold the app's script back: what shows is the page alone.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/assets/index-*.js', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto('/about', { waitUntil: 'commit' });
      const loading = page.getByRole('status');
      await expect.poll(async () => (await loading.textContent())?.trim()).toBe('Loading…');
      expect(await page.locator('.boot svg').isVisible()).toBe(true);
      // Painted (first contentful paint) while the app's script is still held.
      await expect
        .poll(() =>
          page.evaluate(() => performance.getEntriesByName('first-contentful-paint').length),
        )
        .toBe(1);
      await shot(page, 'first-load-spinner-360');
      release();
      await page.locator('#first_name').waitFor();
      expect(await page.locator('.boot').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('logged in: asks each first call once, before the app has run', async () => {
    const { context, page } = await e2e.newPage();
    try {
      await signUpApplicant(e2e, page.request, 'first-load@example.com');
      const calls: { path: string; at: number }[] = [];
      let appScriptDone = Number.POSITIVE_INFINITY;
      page.on('request', (request: Request) => {
        const { pathname } = new URL(request.url());
        if (request.method() === 'GET' && pathname.startsWith('/api/'))
          calls.push({ path: pathname, at: Date.now() });
      });
      page.on('requestfinished', (request: Request) => {
        if (/\/assets\/index-[^/]+\.js$/.test(request.url())) appScriptDone = Date.now();
      });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await page.goto('/about');
      await page.locator('#first_name').waitFor();
      for (const path of FIRST_LOAD_PATHS) {
        const asked = calls.filter((call) => call.path === path);
        expect(asked.length, path).toBe(1);
        expect(asked[0]?.at, path).toBeLessThanOrEqual(appScriptDone);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
