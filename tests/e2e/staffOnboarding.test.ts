/**
 * End to end in Chromium: a staff member's onboarding and a forgotten password (D157, D166). The
 * invitation's page names the account and shows the live checklist; enrolment shows the key in
 * fours (copied without spaces); the recovery codes copy to the clipboard ("Copied") and download
 * as a named text file; after signing out, "Forgot password?" mails a link (read from the outbox),
 * the reset page sets a new password, and signing in with it still asks for the authenticator's
 * code. axe at 1280 and 768 px on each view; screenshots at 1280 and 360 px.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffPasswordMessages } from '../../contract/staffPassword';
import { addStaff } from '../../server/cli/staff';
import { codeAt } from '../../server/staff/totp';
import { PASSWORD } from '../server/harness';
import { invitationToken } from '../server/staffHelpers';
import { startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';

const EMAIL = 'registrar@northfield.edu';
const NEW_PASSWORD = 'Fresh-Start-2027!';

/** axe at 1280 and 768 px, screenshots at 1280 and 360 px; back to 1280 after. */
async function checkView(page: Page, name: string) {
  await expectNoAxeViolations(page, `${name} at 1280`);
  await shot(page, `staff-${name}-1280`, true);
  await page.setViewportSize({ width: 768, height: 900 });
  await expectNoAxeViolations(page, `${name} at 768`);
  await page.setViewportSize({ width: 360, height: 800 });
  await shot(page, `staff-${name}-360`, true);
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('staff onboarding and a forgotten password in Chromium', () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => e2e?.close());

  it('invitation → join → TOTP → codes copied and downloaded → sign out → forgot → reset → sign in with TOTP', async () => {
    await addStaff({
      config: e2e.server.built.context.config,
      email: EMAIL,
      role: 'admin',
      serverUrl: e2e.server.url,
    });
    const { context, page } = await e2e.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);

    // The invitation's page: whose account, and the live checklist.
    await page.goto(
      `/staff/join?token=${encodeURIComponent(await invitationToken(e2e.server, EMAIL))}`,
    );
    const account = page.getByTestId('join-account');
    await account.waitFor();
    expect(await account.innerText()).toBe(
      `You are setting up the staff account ${EMAIL}, as an administrator.`,
    );
    expect(new URL(page.url()).search).toBe('');
    const checklist = page.getByRole('list', { name: 'Password requirements' });
    await page.getByLabel('New password', { exact: true }).fill('short');
    expect(await checklist.locator('[data-state="error"]').count()).toBeGreaterThan(0);
    await checkView(page, 'join');
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    expect(await checklist.locator('[data-state="success"]').count()).toBe(
      await checklist.getByRole('listitem').count(),
    );
    await page.getByRole('button', { name: 'Set password' }).click();

    // Sign in and enrol: the key in groups of four, copied without spaces.
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('E-mail address').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Set up your authenticator app' }).waitFor();
    const key = page.getByTestId('totp-secret');
    const groups = await key.locator('span').allInnerTexts();
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.slice(0, -1).every((group) => group.length === 4)).toBe(true);
    const copied = await key.evaluate((element) => {
      const selection = window.getSelection() as Selection;
      selection.selectAllChildren(element);
      return selection.toString();
    });
    const secret = groups.join('');
    expect(copied).toBe(secret);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // The groups stand apart on screen.
    const [first, second] = await key
      .locator('span')
      .evaluateAll((spans) => spans.slice(0, 2).map((span) => span.getBoundingClientRect()));
    expect((second?.left ?? 0) - (first?.right ?? 0)).toBeGreaterThan(3);
    await checkView(page, 'enrol-key');
    await page.getByLabel('Code', { exact: true }).fill(codeAt(secret, e2e.server.clock.now()));
    await page.getByRole('button', { name: 'Continue' }).click();

    // The recovery codes: Copy (announced) and Download (named after the college and account).
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    const codes = await page.getByTestId('recovery-codes').getByRole('listitem').allInnerTexts();
    expect(codes).toHaveLength(10);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join('\n'));
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`northfield-college-${EMAIL}-recovery-codes.txt`);
    const text = await readFile((await file.path()) as string, 'utf8');
    for (const code of codes) expect(text.split('\n')).toContain(code);
    await checkView(page, 'recovery-codes');
    await page.getByRole('button', { name: 'I have kept them' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();

    // Forgot password, from the sign-in.
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await checkView(page, 'sign-in');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot password' }).waitFor();
    const before = (await e2e.server.outbox()).length;
    await page.getByLabel('E-mail address').fill(EMAIL);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').filter({ hasText: staffPasswordMessages.forgotSent }).waitFor();
    await checkView(page, 'forgot');

    // The link from the mail: a new password, with the checklist.
    const mail = await e2e.server.mail(EMAIL, 'reset your staff console password', {
      after: before,
    });
    const link = new URL(/https?:\/\/\S+\/staff\/reset\?token=\S+/.exec(mail.text)?.[0] ?? '');
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.getByLabel('New password', { exact: true }).fill('short');
    await checkView(page, 'reset');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('status').filter({ hasText: staffPasswordMessages.resetDone }).waitFor();
    await checkView(page, 'reset-done');
    await page.getByRole('link', { name: 'Sign in' }).click();

    // Signing in with the new password still asks for the authenticator's code.
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('E-mail address').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Enter your authenticator code' }).waitFor();
    e2e.server.clock.advance(30_000);
    await page.getByLabel('Code', { exact: true }).fill(codeAt(secret, e2e.server.clock.now()));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await context.close();
  }, 240_000);
});
