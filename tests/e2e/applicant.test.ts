/**
 * End to end in Chromium against the built app and the real server (PGlite): what an applicant does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collegeTime } from '../../contract/collegeTime';
import { submissionText } from '../../contract/words';
import { datedAlerts } from '../../definitions/content';
import { accountText } from '../../src/features/account/accountText';
import { validApplication } from '../definitions/fixtures';
import { codeIn, PASSWORD } from '../server/harness';
import { signUpApplicant, startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';

describe('the applicant in Chromium', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 120_000);
  afterAll(async () => e2e?.close());

  it('keeps anonymous answers through sign-up, confirmation and login; 7.22: the SSN never in a URL or web storage', async () => {
    const { context, page } = await e2e.newPage();
    const email = 'maya@example.com';
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    // What web storage holds, read at every step (anonymous answers live there until login).
    const storageSeen: string[] = [];
    const readStorage = async () => {
      storageSeen.push(
        await page.evaluate(async () => {
          const dump = (storage: Storage) =>
            Object.entries({ ...storage })
              .map(([key, value]) => `${key}=${value}`)
              .join('\n');
          const databases = (await indexedDB.databases()).map((db) => `indexedDB:${db.name}`);
          return [dump(localStorage), dump(sessionStorage), ...databases].join('\n');
        }),
      );
    };
    try {
      await page.goto('/');
      await expect.poll(() => page.url()).toContain('/about');
      await page.locator('#first_name').fill('Maya');
      await page.locator('#last_name').fill('Okafor');
      await page.getByRole('radio', { name: 'U.S. Citizen', exact: true }).check();
      await page.getByRole('textbox', { name: 'Social Security Number' }).fill('219099999');
      await expectNoAxeViolations(page, '/about (anonymous)');
      await shot(page, 'about-anonymous', true);

      await page.getByRole('button', { name: 'Save & Continue' }).click();
      // D159: sign-up, confirmation and login carry the page the applicant was heading to.
      const heading = (pathname: string) => (url: URL) =>
        url.pathname === pathname && url.searchParams.get('next') === '/education';
      await page.waitForURL(heading('/signup'));
      // The card loads on demand: until its heading shows, the page left behind is still on screen.
      await page.getByRole('heading', { name: 'Sign Up', level: 1 }).waitFor();
      await readStorage();
      // The card says why the applicant is here.
      expect(await page.getByText(accountText.hints.signupFromForm).count()).toBe(1);
      await shot(page, 'signup-from-form');
      await page.getByLabel('Email Address').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await expectNoAxeViolations(page, '/signup');
      await page.getByRole('button', { name: 'Submit' }).click();

      await page.waitForURL(heading('/confirm'));
      await page.getByRole('heading', { name: 'Confirm Your Account', level: 1 }).waitFor();
      await readStorage();
      const code = codeIn(await e2e.server.mail(email, 'confirmation code'));
      await page.getByLabel('Confirmation Code').fill(code);
      await expectNoAxeViolations(page, '/confirm');
      await page.getByRole('button', { name: 'Submit' }).click();

      await page.waitForURL(heading('/login'));
      await page.getByRole('heading', { name: 'Log In', level: 1 }).waitFor();
      await readStorage();
      await page.getByLabel('Email Address').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await expectNoAxeViolations(page, '/login');
      await page.getByRole('button', { name: 'Submit' }).click();

      await page.waitForURL('**/education');
      await expect.poll(() => page.getByRole('heading', { name: 'Welcome!' }).count()).toBe(1);
      await page
        .getByRole('navigation', { name: 'Application pages' })
        .getByRole('link', { name: 'About You' })
        .click();
      await page.waitForURL('**/about');
      await expect.poll(() => page.locator('#first_name').inputValue()).toBe('Maya');
      await shot(page, 'about-logged-in', true);

      // The answers were saved to the server: a reload reads them from the profile.
      await page.reload();
      await expect.poll(() => page.locator('#last_name').inputValue()).toBe('Okafor');
      await expectNoAxeViolations(page, '/about (logged in)');

      // SECURITY.md 7.22: the SSN travelled in memory and reached the server…
      const profile = await page.request.get('/api/profile');
      expect(((await profile.json()) as { answer: { ssn?: string } }).answer.ssn).toBe(
        '219-09-9999',
      );
      // …and never a URL, localStorage, sessionStorage or IndexedDB.
      const ssnForms = ['219-09-9999', '219099999', '219%2D09%2D9999'];
      for (const url of urls) for (const form of ssnForms) expect(url).not.toContain(form);
      await readStorage();
      const stored = storageSeen.join('\n');
      // Not blind: the anonymous answers were there (a name), and no database was opened.
      expect(stored).toContain('Okafor');
      expect(stored).not.toContain('indexedDB:');
      expect(stored).not.toMatch(/219.?09.?9999/);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('submits: errors lead to the summary, its link to the question, then to /completion', async () => {
    // The applicant's browser is in California; the college is in New York (D197).
    const { context, page } = await e2e.newPage({ timezoneId: 'America/Los_Angeles' });
    const email = 'submitter@example.com';
    try {
      // An account with a complete application except the first name, made through the API.
      const api = page.request;
      await signUpApplicant(e2e, api, email);
      expect(
        (await api.put('/api/answer', { data: { ...validApplication, first_name: '' } })).status(),
      ).toBe(200);

      // Layout shifts the applicant did not cause (CLS: those more than 500 ms after an input),
      // counted from the moment `since` is set.
      await page.addInitScript(() => {
        const w = window as unknown as { unexpectedShift: number; since: number };
        w.unexpectedShift = 0;
        w.since = Infinity;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as {
            value: number;
            hadRecentInput: boolean;
            startTime: number;
          }[])
            if (!entry.hadRecentInput && entry.startTime >= w.since)
              w.unexpectedShift += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto('/final-steps');
      const submit = page.getByRole('button', { name: 'Submit' });
      await submit.waitFor();
      // The deadline alert shows while its window is open, until the application is submitted.
      const alert = datedAlerts[0];
      if (!alert) throw new Error('the default institution has no dated alert');
      const deadline = page.getByText(alert.text);
      const deadlineOpen =
        Date.parse(alert.start) <= Date.now() && Date.now() < Date.parse(alert.end);
      expect(await deadline.count()).toBe(deadlineOpen ? 1 : 0);
      await page.evaluate(() => {
        (window as unknown as { since: number }).since = performance.now();
      });
      await submit.click();
      await page.waitForURL('**/about');
      const summary = page
        .getByRole('alert')
        .filter({ hasText: "We're missing some information!" });
      await expect.poll(() => summary.count()).toBe(1);
      await expectNoAxeViolations(page, '/about with the error summary');
      await shot(page, 'about-error-summary', true);

      await summary.getByRole('link', { name: 'First Name' }).click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('first_name');
      await page.keyboard.type('Maya');
      await expect.poll(() => summary.count()).toBe(0);
      // Errors appearing (after the server's answer) and going away move nothing the applicant did
      // not ask for.
      const shift = await page.evaluate(
        () => (window as unknown as { unexpectedShift: number }).unexpectedShift,
      );
      expect(shift).toBeLessThan(0.01);

      await page.getByRole('button', { name: 'Save & Continue' }).click();
      await page.waitForURL('**/education');
      await page.getByRole('button', { name: 'Save & Continue' }).click();
      await page.waitForURL('**/final-steps');
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.waitForURL('**/completion');
      await expect
        .poll(() =>
          page
            .getByRole('heading', {
              name: 'To complete your application, you must take the following steps.',
            })
            .count(),
        )
        .toBe(1);
      await expect.poll(() => page.getByRole('heading', { name: 'Thanks, Maya!' }).count()).toBe(1);
      // The reference and the time, on the page and in the receipt, as the profile has them: the
      // time in the college's zone, named, whatever the browser's zone (D197).
      const { submission } = (await (await api.get('/api/profile')).json()) as {
        submission: { reference: string; submitted_at: string };
      };
      const submittedAt = collegeTime(submission.submitted_at, 'America/New_York');
      const receipt = page.locator('dl');
      await expect
        .poll(() => receipt.textContent(), { timeout: 10_000 })
        .toBe(
          `${submissionText.reference}${submission.reference}${submissionText.submitted}${submittedAt}`,
        );
      expect(await receipt.textContent()).not.toMatch(/P[SD]T/);
      const mail = await e2e.server.mail(email, 'we received your application');
      expect(mail.text).toContain(`${submissionText.reference}: ${submission.reference}`);
      expect(mail.text).toContain(`${submissionText.submitted}: ${submittedAt}`);
      expect(await deadline.count()).toBe(0);
      await expectNoAxeViolations(page, '/completion');
      await shot(page, 'completion', true);

      // The completion guard: the form pages now lead back to /completion.
      await page.goto('/about');
      await page.waitForURL('**/completion');
    } finally {
      await context.close();
    }
  }, 90_000);

  it('loads temporary answers from ?token= and removes the token from the address', async () => {
    const { context, page } = await e2e.newPage();
    try {
      const issued = await page.request.post('/public/tmp', {
        data: { answers: { first_name: 'Token', last_name: 'Holder' } },
      });
      const { token } = (await issued.json()) as { token: string };
      await page.goto(`/?token=${token}`);
      await page.waitForURL((url) => url.pathname === '/about' && !url.search.includes('token'));
      await expect.poll(() => page.locator('#first_name').inputValue()).toBe('Token');
      expect(page.url()).not.toContain(token);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('handles an ended session, logs out, and resumes on the last page after logging in again', async () => {
    const { context, page } = await e2e.newPage();
    const email = 'resumer@example.com';
    try {
      await signUpApplicant(e2e, page.request, email);

      // Go to Your Education: the last page is recorded on the server.
      await page.goto('/about');
      await page.getByRole('button', { name: 'Save & Continue' }).click();
      await page.waitForURL('**/education');

      // The server ends the session after 15 idle minutes: the next call answers 401. What was typed
      // just before is not lost (SECURITY.md REQ-R-4): it is saved after logging in again.
      await page.locator('#hs_city').fill('Montpelier');
      e2e.server.clock.advance(16 * 60 * 1000);
      await page.getByRole('button', { name: 'Save & Continue' }).click();
      await page.waitForURL('**/login');
      await expect
        .poll(() =>
          page
            .getByRole('alert')
            .filter({
              hasText: 'Your session is invalid. Please clear your cookies and login again.',
            })
            .count(),
        )
        .toBe(1);
      await shot(page, 'login-session-invalid', true);

      // Log in again: back on the last page recorded.
      await page.getByLabel('Email Address').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.waitForURL('**/education');
      expect(await page.locator('#hs_city').inputValue()).toBe('Montpelier');
      await expect
        .poll(
          async () =>
            (
              (await (await page.request.get('/api/profile')).json()) as {
                answer: Record<string, unknown>;
              }
            ).answer.hs_city,
        )
        .toBe('Montpelier');

      // Log out from the account popover.
      await page.getByRole('button', { name: 'Account' }).click();
      await page.getByRole('button', { name: 'Log Out', exact: true }).click();
      await page.waitForURL('**/login');
      expect((await page.request.get('/api/profile')).status()).toBe(401);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('passes axe on every other screen, dialogs open, and on a 360 px phone', async () => {
    const { context, page } = await e2e.newPage();
    try {
      for (const path of [
        '/education',
        '/final-steps',
        '/forgot',
        '/reset?username=a%40example.com&id=abc',
      ]) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        await expectNoAxeViolations(page, path);
      }
      await page.goto('/about');
      await page.getByRole('button', { name: 'Help' }).click();
      await expect.poll(() => page.getByRole('dialog', { name: 'Help' }).count()).toBe(1);
      await expectNoAxeViolations(page, 'the Help dialog');
      await shot(page, 'help-dialog', true);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Privacy Policy and Cookie Notice' }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(1);
      await expectNoAxeViolations(page, 'the Privacy dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Account' }).click();
      await expectNoAxeViolations(page, 'the account popover');
      await page.keyboard.press('Escape');

      await page.setViewportSize({ width: 360, height: 740 });
      for (const path of ['/about', '/signup']) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `horizontal scroll on ${path} at 360 px`).toBeLessThanOrEqual(0);
        await expectNoAxeViolations(page, `${path} at 360 px`);
      }
      await shot(page, 'signup-phone', true);
    } finally {
      await context.close();
    }
  }, 150_000);

  it('after 14 idle minutes asks "Still working?", at 15 logs out with what was typed saved', async () => {
    const { context, page } = await e2e.newPage();
    const email = 'idle@example.com';
    try {
      await signUpApplicant(e2e, page.request, email);

      await page.clock.install();
      await page.goto('/about');
      await page.locator('#first_name').fill('Unsaved');
      // The autosave has it 2 s later (a save in flight would count as activity, REQ-R-5).
      await page.clock.runFor(2_500);
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).count())
        .toBe(1);
      await page.clock.fastForward('14:01');
      const dialog = page.getByRole('alertdialog', { name: 'Still working?' });
      await expect.poll(() => dialog.count()).toBe(1);
      // The small modal size of SPEC 9 (xs, 30rem).
      expect((await dialog.boundingBox())?.width).toBeLessThanOrEqual(480);
      await expectNoAxeViolations(page, 'the inactivity dialog');
      await shot(page, 'inactivity-dialog', true);

      await page.clock.fastForward('01:00');
      await page.waitForURL('**/login');
      await expect
        .poll(() =>
          page.getByText('You have been automatically logged out due to inactivity.').count(),
        )
        .toBeGreaterThan(0);

      // What was typed was saved before the logout.
      const again = await e2e.browser.newContext({ baseURL: e2e.origin });
      try {
        await again.request.post('/public/login', {
          data: { username: email, password: PASSWORD },
        });
        const profile = (await (await again.request.get('/api/profile')).json()) as {
          answer: Record<string, unknown>;
        };
        expect(profile.answer.first_name).toBe('Unsaved');
      } finally {
        await again.close();
      }
    } finally {
      await context.close();
    }
  }, 90_000);
});
