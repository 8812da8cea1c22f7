/**
 * End to end in Chromium, two tabs of one applicant (D113): an address of a page, opened in a second
 * tab or reloaded, is where the applicant goes, whatever another tab recorded as the last page; the
 * resume of SPEC 2.2 happens when they arrive without asking for a page (after login, at `/`).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpApplicant, startE2E, type E2E } from './harness';
import { expectNoAxeViolations } from './pageChecks';
import { logIn } from './returningOverlap';

const WAIT = { timeout: 15_000 };

const path = (page: Page) => new URL(page.url()).pathname;

/** The page shows its heading and the address stays put for `ms` (a resume would move it). */
async function staysOn(page: Page, pathname: string, heading: string, ms = 2_000) {
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor(WAIT);
  for (let waited = 0; waited < ms; waited += 250) {
    expect(path(page)).toBe(pathname);
    await page.waitForTimeout(250);
  }
}

/** The server's record of the last page. */
const lastPage = async (page: Page) =>
  ((await (await page.request.get('/api/profile')).json()) as { last_page: string | null })
    .last_page;

describe('two tabs and the resume', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 120_000);
  afterAll(async () => e2e?.close());

  it('a second tab opened at a page stays there; `/`, a login and a reload behave as the applicant expects', async () => {
    const { context, page: a } = await e2e.newPage();
    const email = 'two-tabs-resume@example.com';
    try {
      await signUpApplicant(e2e, context.request, email);
      // Tab A works on Final Steps: the server records it as the last page.
      await a.goto('/final-steps');
      await a.getByRole('heading', { name: 'Final Steps', level: 1 }).waitFor(WAIT);
      await expect.poll(() => lastPage(a), WAIT).toBe('/final-steps');

      // Tab B is opened at Your Education: it stays there, and now that is the last page.
      const b = await context.newPage();
      await b.goto('/education');
      await staysOn(b, '/education', 'Your Education');
      await expect.poll(() => lastPage(b), WAIT).toBe('/education');
      await expectNoAxeViolations(b, '/education in a second tab');

      // Tab A reloaded: the address it shows is where it stays (and is recorded again).
      await a.reload();
      await staysOn(a, '/final-steps', 'Final Steps');
      await expect.poll(() => lastPage(a), WAIT).toBe('/final-steps');

      // A third tab at `/` asks for no page: it resumes on the last page recorded.
      const c = await context.newPage();
      await c.goto('/');
      await c.waitForURL('**/final-steps', WAIT);
      await staysOn(c, '/final-steps', 'Final Steps');
      // Reloading the page it landed on does not resume again (the flag was used up).
      await a.goto('/about');
      await staysOn(a, '/about', 'About You');
      await expect.poll(() => lastPage(a), WAIT).toBe('/about');
      await c.reload();
      await staysOn(c, '/final-steps', 'Final Steps');

      // Tab A on Your Education; log out and in again in tab C: the login asks for no page and
      // resumes there.
      await a.goto('/education');
      await expect.poll(() => lastPage(a), WAIT).toBe('/education');
      await c.getByRole('button', { name: 'Account' }).click();
      await c.getByRole('button', { name: 'Log Out', exact: true }).click();
      await c.waitForURL('**/login');
      await logIn(c, email);
      await c.waitForURL('**/education', WAIT);
      await staysOn(c, '/education', 'Your Education');
    } finally {
      await context.close();
    }
  }, 180_000);
});
