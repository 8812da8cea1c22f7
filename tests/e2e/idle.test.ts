/**
 * SECURITY.md 7.13 cross-tab idle (Playwright, two pages of one browser context, the context clock):
 * activity in one tab keeps the other logged in; idleness in every tab logs both out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autosaveText } from '../../contract/words';
import { validApplication } from '../definitions/fixtures';
import { signUpApplicant, startE2E, type E2E } from './harness';

const IDLE_MESSAGE = 'You have been automatically logged out due to inactivity.';

describe('SECURITY.md 7.13 cross-tab idle', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 120_000);
  afterAll(async () => e2e?.close());

  it('7.13 activity in tab A at 10 min keeps tab B logged in at 20 min; 15 idle minutes in every tab log both out', async () => {
    const { context, page: a } = await e2e.newPage();
    const email = 'two-tabs@example.com';
    try {
      await signUpApplicant(e2e, context.request, email);

      await context.clock.install();
      await a.goto('/about');
      await expect.poll(() => a.locator('#first_name').count()).toBe(1);
      // Tab B opens the same page (an address of a page is where a tab goes, D113).
      const b = await context.newPage();
      await b.goto('/about');
      await expect.poll(() => b.locator('#first_name').count()).toBe(1);

      await context.clock.fastForward('10:00');
      await a.locator('#first_name').click();
      await a.keyboard.type('Active');
      // Real time runs on after the jumps: the tabs share A's activity through timers of their own
      // (react-idle-timer's syncTimers) and A saves after its debounce. Both must run before the next
      // jump, or they run inside it and stamp the activity at t = 20 min. The save being done shows it.
      await expect
        .poll(
          () =>
            a
              .getByRole('status')
              .filter({ hasText: /Sav|retrying/ })
              .textContent(),
          {
            timeout: 15_000,
          },
        )
        .toBe(autosaveText.saved);
      await context.clock.fastForward('10:00');
      // t = 20 min: B saw no input of its own, but A's activity counts for it.
      expect(b.url()).toContain('/about');
      expect(a.url()).toContain('/about');
      expect(await b.getByText(IDLE_MESSAGE).count()).toBe(0);

      // 15 minutes after the last activity (t = 25 min) both tabs are logged out.
      // The clock is virtual; the wait is for a busy machine's tabs to run their timers and requests.
      await context.clock.fastForward('05:30');
      await a.waitForURL('**/login', { timeout: 15_000 });
      await b.waitForURL('**/login', { timeout: 15_000 });
      await expect.poll(() => b.getByText(IDLE_MESSAGE).count()).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('7.13 logging out in tab A shows the login page in tab B within 2 s', async () => {
    const { context, page: a } = await e2e.newPage();
    const email = 'two-tabs-logout@example.com';
    try {
      await signUpApplicant(e2e, context.request, email);
      await a.goto('/about');
      const b = await context.newPage();
      await b.goto('/about');
      await expect.poll(() => b.locator('#first_name').count()).toBe(1);
      await a.getByRole('button', { name: 'Account' }).click();
      await a.getByRole('button', { name: 'Log Out', exact: true }).click();
      await a.waitForURL('**/login');
      await b.waitForURL('**/login', { timeout: 2000 });
    } finally {
      await context.close();
    }
  }, 60_000);

  it('7.15 a submit still in flight at the idle point is not interrupted: no logout, it completes', async () => {
    const { context, page } = await e2e.newPage();
    const email = 'slow-submit@example.com';
    try {
      const api = context.request;
      await signUpApplicant(e2e, api, email);
      expect((await api.put('/api/answer', { data: validApplication })).status()).toBe(200);

      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let submitSeen = false;
      await page.route('**/api/submit', async (route) => {
        submitSeen = true;
        await held; // the server is slow: the answer comes after the idle point
        await route.continue();
      });

      await context.clock.install();
      await page.goto('/about');
      await page.getByRole('button', { name: 'Save & Continue' }).click();
      await page.waitForURL('**/education');
      await page.getByRole('button', { name: 'Save & Continue' }).click();
      await page.waitForURL('**/final-steps');
      await context.clock.fastForward('13:30');
      await page.getByRole('button', { name: 'Submit' }).click();
      await expect.poll(() => submitSeen).toBe(true);
      // Idle would be at 15 min; the submit is still in flight at 20 min.
      await context.clock.fastForward('06:30');
      expect(page.url()).toContain('/final-steps');
      expect(await page.getByText(IDLE_MESSAGE).count()).toBe(0);
      release();
      await page.waitForURL('**/completion');
    } finally {
      await context.close();
    }
  }, 90_000);
});
