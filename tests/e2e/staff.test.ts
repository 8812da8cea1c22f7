/**
 * End to end in Chromium: the staff console (D103). The first admin comes from the command line,
 * joins from the link, enrols an authenticator (the test computes its codes from the key shown, on
 * the server's clock), invites a reader; the reader joins, enrols, finds an applicant, opens the
 * view, downloads the PDF and makes a link for a reviewer; the admin's export is parsed, and the
 * admin finds that link among every link and revokes it. Then the way people arrive: reload on
 * each view keeps it, back and forward, signing out and in again (with a new code) returns to the
 * same view, an idle session asks for the sign-in again. Screens at 1280, 768 and 360 px, axe on
 * each view.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceMessages } from '../../contract';
import { addStaff } from '../../server/cli/staff';
import { codeAt } from '../../server/staff/totp';
import { validApplication } from '../definitions/fixtures';
import { PASSWORD, registeredClient } from '../server/harness';
import { invitationToken } from '../server/staffHelpers';
import { startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';

describe('the staff console in Chromium', () => {
  let e2e: E2E;
  let adminSecret = '';

  beforeAll(async () => {
    e2e = await startE2E();
    const applicant = await registeredClient(e2e.server, 'avery@example.com');
    const saved = await applicant.put('/api/answer', { ...validApplication, last_name: 'Quill' });
    expect(saved.status).toBe(200);
  }, 300_000);
  afterAll(async () => e2e?.close());

  async function joinAndEnrol(page: Page, email: string, label: string) {
    const token = await invitationToken(e2e.server, email);
    await page.goto(`/staff/join?token=${encodeURIComponent(token)}`);
    await page.getByLabel('New password').fill(PASSWORD);
    await expectNoAxeViolations(page, `${label} join`);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Set up your authenticator app' }).waitFor();
    await expectNoAxeViolations(page, `${label} enrolment`);
    await shot(page, `staff-${label}-enrol-1280`);
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    await page.getByLabel('Code').fill(codeAt(secret, e2e.server.clock.now()));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    await page.getByRole('button', { name: 'I have kept them' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /\d applications?$/ })
      .waitFor();
    e2e.server.clock.advance(30_000);
    return secret;
  }

  it('an admin signs in with TOTP, invites a reader; the reader finds an applicant, opens the view and downloads the PDF; the export parses', async () => {
    const config = e2e.server.built.context.config;
    await addStaff({
      config,
      email: 'dean@northfield.edu',
      role: 'admin',
      serverUrl: e2e.server.url,
    });
    const admin = await e2e.newPage();
    const reader = await e2e.newPage();
    try {
      adminSecret = await joinAndEnrol(admin.page, 'dean@northfield.edu', 'admin');
      expect(adminSecret).toMatch(/^[A-Z2-7]+$/);
      await expectNoAxeViolations(admin.page, 'admin applications');
      await shot(admin.page, 'staff-applications-1280');

      await admin.page.getByRole('link', { name: 'Staff', exact: true }).click();
      await admin.page.getByLabel('E-mail address').fill('reader@northfield.edu');
      await admin.page.getByRole('button', { name: 'Invite' }).click();
      await admin.page.getByText('The invitation has been sent.').waitFor();
      await expectNoAxeViolations(admin.page, 'admin staff');

      await joinAndEnrol(reader.page, 'reader@northfield.edu', 'reader');
      await reader.page.getByLabel('Search by name, e-mail or reference').fill('quill');
      // The one application shows before the search too: wait for the search itself, or its
      // delayed navigation would take the reader back from the view to the list.
      await reader.page.waitForURL(/[?&]q=quill/);
      await reader.page
        .getByRole('status')
        .filter({ hasText: /^1 application$/ })
        .waitFor();
      await reader.page.getByRole('link', { name: /Quill/ }).click();
      await reader.page.getByRole('heading', { name: 'About You' }).waitFor();
      await expectNoAxeViolations(reader.page, 'reader application');
      await shot(reader.page, 'staff-application-1280');
      await reader.page.setViewportSize({ width: 768, height: 900 });
      await shot(reader.page, 'staff-application-768');
      expect(await reader.page.getByRole('link', { name: 'Staff', exact: true }).count()).toBe(0);

      let downloaded: Buffer | null = null;
      for (let attempt = 0; attempt < 60 && !downloaded; attempt++) {
        const download = reader.page.waitForEvent('download', { timeout: 2_000 }).catch(() => null);
        await reader.page.getByRole('button', { name: 'Download the PDF' }).click();
        const file = await download;
        if (file) downloaded = await readFile((await file.path()) as string);
      }
      expect(downloaded?.subarray(0, 5).toString()).toBe('%PDF-');

      // The reader makes a link for a reviewer without an account.
      await reader.page.getByRole('button', { name: 'Make a link for a reviewer' }).click();
      const minted = reader.page
        .getByRole('status')
        .filter({ hasText: 'New link' })
        .locator('code');
      const serviceToken = new URL((await minted.innerText()).trim()).searchParams.get(
        'service_token',
      ) as string;
      expect(serviceToken).toBeTruthy();

      await admin.page.getByRole('link', { name: 'Applications' }).click();
      await admin.page.setViewportSize({ width: 768, height: 900 });
      await shot(admin.page, 'staff-applications-768');
      const exported = admin.page.waitForEvent('download');
      await admin.page.getByRole('link', { name: 'Export CSV' }).click();
      const csv = await readFile((await (await exported).path()) as string, 'utf8');
      const rows = parseCsv(csv, { bom: true }) as string[][];
      expect(rows[0]?.slice(0, 5)).toEqual([
        'Applicant ID',
        'Reference',
        'Name',
        'E-mail',
        'Status',
      ]);
      expect(rows.find((row) => row[3] === 'avery@example.com')?.[2]).toMatch(/Quill$/);

      // The admin finds the reader's link among every link, and revokes it after a confirmation.
      await admin.page.setViewportSize({ width: 1280, height: 900 });
      await admin.page.getByRole('link', { name: 'Service links' }).click();
      await admin.page.getByRole('heading', { level: 1, name: 'Service links' }).waitFor();
      const row = admin.page.getByRole('row').filter({ hasText: 'avery@example.com' });
      await row.getByText('Live', { exact: true }).waitFor();
      expect(await row.innerText()).toContain('reader@northfield.edu');
      await expectNoAxeViolations(admin.page, 'admin service links');
      await shot(admin.page, 'staff-links-1280');
      await row.getByRole('button', { name: /^Revoke/ }).click();
      const confirm = admin.page.getByRole('dialog', { name: 'Revoke this link?' });
      await confirm.waitFor();
      await expectNoAxeViolations(admin.page, 'admin revoke confirmation');
      await shot(admin.page, 'staff-links-confirm-1280');
      await confirm.getByRole('button', { name: 'Revoke the link' }).click();
      await admin.page.getByText('The link has been revoked.').waitFor();
      await row.getByText('Revoked', { exact: true }).waitFor();
      expect(await row.getByRole('button').count()).toBe(0);
      await admin.page.reload();
      await admin.page
        .getByRole('row')
        .filter({ hasText: 'avery@example.com' })
        .getByText('Revoked', { exact: true })
        .waitFor();
      // The reviewer's link now shows the service view's refusal.
      const reviewer = await e2e.newPage();
      try {
        await reviewer.page.goto(`/?service_token=${encodeURIComponent(serviceToken)}`);
        await reviewer.page.getByRole('heading', { name: serviceMessages.tokenInvalid }).waitFor();
      } finally {
        await reviewer.context.close();
      }

      // From the application's own page, on a phone, a new link is revoked after the same question.
      await admin.page.setViewportSize({ width: 360, height: 800 });
      await shot(admin.page, 'staff-links-360');
      await admin.page
        .getByRole('row')
        .filter({ hasText: 'avery@example.com' })
        .getByRole('link')
        .click();
      await admin.page.getByRole('term').filter({ hasText: 'Reference' }).waitFor();
      await shot(admin.page, 'staff-application-360', true);
      await admin.page.getByRole('button', { name: 'Make a link for a reviewer' }).click();
      const own = admin.page.getByRole('listitem').filter({ hasText: /^Live:/ });
      await own.getByRole('button', { name: /^Revoke/ }).click();
      const ownConfirm = admin.page.getByRole('dialog', { name: 'Revoke this link?' });
      await ownConfirm.getByText('this application').waitFor();
      await expectNoAxeViolations(admin.page, 'admin revoke confirmation on the application');
      await shot(admin.page, 'staff-application-revoke-360');
      await ownConfirm.getByRole('button', { name: 'Revoke the link' }).click();
      await admin.page.getByText('The link has been revoked.').waitFor();
      await own.waitFor({ state: 'detached' });
      await admin.page
        .getByRole('listitem')
        .filter({ hasText: /^Revoked:/ })
        .nth(1)
        .waitFor();

      await admin.page.setViewportSize({ width: 768, height: 900 });
      await admin.page.getByRole('link', { name: 'Audit log', exact: true }).click();
      // Events in words, the applicant by name (a link to the application), local times.
      const pdfRead = admin.page
        .getByRole('row')
        .filter({ hasText: /Downloaded the application PDF of .*Quill/ })
        .first();
      await pdfRead.waitFor();
      await expect.poll(() => pdfRead.textContent()).toMatch(/ (EST|EDT)/);
      await expectNoAxeViolations(admin.page, 'admin audit');
      await shot(admin.page, 'staff-audit-768');
      // Filters are in the URL: what, then only this applicant; keyboard only.
      await admin.page.getByLabel('What', { exact: true }).focus();
      await admin.page
        .getByLabel('What', { exact: true })
        .selectOption({ label: 'PDF downloaded' });
      await admin.page.waitForURL((url) => url.searchParams.get('what') === 'application.pdf');
      await pdfRead.getByRole('button', { name: /^Only this applicant/ }).focus();
      await admin.page.keyboard.press('Enter');
      await admin.page.waitForURL((url) => url.searchParams.has('applicant'));
      await admin.page.getByText(/^Only the events of .*Quill/).waitFor();
      await admin.page.setViewportSize({ width: 1280, height: 900 });
      await admin.page.reload();
      await admin.page.getByText(/^Only the events of .*Quill/).waitFor();
      await expectNoAxeViolations(admin.page, 'admin audit filtered 1280');
      await shot(admin.page, 'staff-audit-filtered-1280');
      await admin.page.getByRole('link', { name: /Quill/ }).first().click();
      await admin.page.getByRole('term').filter({ hasText: 'Reference' }).waitFor();
    } finally {
      await admin.context.close();
      await reader.context.close();
    }
  }, 300_000);

  /** Signs in again on the sign-in step in place (password, then the next code). */
  async function signInAgain(page: Page) {
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('E-mail address').fill('dean@northfield.edu');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Enter your authenticator code' }).waitFor();
    e2e.server.clock.advance(30_000);
    await page
      .getByLabel('Code', { exact: true })
      .fill(codeAt(adminSecret, e2e.server.clock.now()));
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  it('reload, back and forward keep the view; signing in again returns to it; an idle session asks for the sign-in', async () => {
    expect(adminSecret).not.toBe('');
    const { page, context } = await e2e.newPage();
    try {
      await page.goto('/staff?q=quill&sort=name&dir=asc');
      await signInAgain(page);
      // The list's state is the URL's: after the sign-in, and again after a reload.
      await page
        .getByRole('status')
        .filter({ hasText: /^1 application$/ })
        .waitFor();
      expect(await page.getByLabel('Search by name, e-mail or reference').inputValue()).toBe(
        'quill',
      );
      await page.reload();
      await page
        .getByRole('status')
        .filter({ hasText: /^1 application$/ })
        .waitFor();
      expect(await page.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe(
        'ascending',
      );

      await page.getByRole('link', { name: /Quill/ }).click();
      await page.getByRole('heading', { name: 'About You' }).waitFor();
      expect(new URL(page.url()).pathname).toMatch(/^\/staff\/applications\/[0-9a-f-]{36}$/);
      // No empty headings: this application has no documents.
      expect(await page.getByRole('heading', { name: 'Documents' }).count()).toBe(0);
      await page.reload();
      await page.getByRole('heading', { name: 'About You' }).waitFor();
      await page.goBack();
      await page
        .getByRole('status')
        .filter({ hasText: /^1 application$/ })
        .waitFor();
      expect(await page.getByLabel('Search by name, e-mail or reference').inputValue()).toBe(
        'quill',
      );
      await page.goForward();
      await page.getByRole('heading', { name: 'About You' }).waitFor();

      for (const [path, heading] of [
        ['/staff/staff', 'Staff'],
        ['/staff/audit', 'Audit log'],
        ['/staff/links', 'Service links'],
        ['/staff/versions', 'Form versions'],
        ['/staff/deletions', 'Deletion requests'],
        ['/staff', 'Applications'],
      ] as const) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.reload();
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        for (const width of [1280, 768, 360]) {
          await page.setViewportSize({ width, height: 900 });
          await expectNoAxeViolations(page, `${path} at ${width}`);
          await shot(page, `staff-view${path.replaceAll('/', '-')}-${width}`);
        }
      }

      // Sign out on the audit log, sign in again: the audit log comes back.
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto('/staff/audit');
      await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      // Without a session every view goes to /staff/login, which remembers where it was asked.
      await page.waitForURL(
        (url) => url.pathname === '/staff/login' && url.searchParams.get('next') === '/staff/audit',
      );
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await expectNoAxeViolations(page, 'sign-in');
      await shot(page, 'staff-sign-in-1280');
      await page.setViewportSize({ width: 360, height: 800 });
      await shot(page, 'staff-sign-in-360');
      await page.setViewportSize({ width: 1280, height: 900 });
      await signInAgain(page);
      await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/staff/audit');

      // 21 minutes without activity: the next call finds the session gone and the sign-in returns.
      e2e.server.clock.advance(21 * 60 * 1000);
      await page.getByRole('link', { name: 'Applications' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/staff/login');
      await signInAgain(page);
      await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
    } finally {
      await context.close();
    }
  }, 300_000);
});
