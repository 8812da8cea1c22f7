/**
 * End to end in Chromium: the applicant's rights over their data (D152) from the Account menu.
 * "Download my data" saves the server's ZIP under its name, holding the answers; "Delete my
 * account" before submission signs the applicant out with a notice, and the old password no longer
 * logs in; after submission it files a request that an admin sees in the console's Deletion
 * requests and completes. axe on the dialog and the console's view; screens at 1280 and 360 px.
 */
import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import type { APIRequestContext, APIResponse, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import { staffMessages } from '../../contract/staff';
import { addStaff } from '../../server/cli/staff';
import { codeAt } from '../../server/staff/totp';
import { validApplication } from '../definitions/fixtures';
import { PASSWORD } from '../server/harness';
import { invitationToken } from '../server/staffHelpers';
import { signUpApplicant, startE2E, type E2E } from './harness';
import { expectNoAxeViolations, shot } from './pageChecks';

const ok = async (call: Promise<APIResponse>) => {
  const response = await call;
  expect(response.status(), await response.text()).toBe(200);
  return response;
};

/** Opens the Account menu and picks one of its items. */
async function fromAccountMenu(page: Page, item: string) {
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: item }).click();
}

describe('the applicant’s rights in Chromium', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => e2e?.close());

  /** A signed-in applicant with answers saved, on the form. */
  async function applicantOnForm(email: string, answers: Record<string, unknown>) {
    const { context, page } = await e2e.newPage();
    await signUpApplicant(e2e, page.request, email);
    await ok(page.request.put('/api/answer', { data: answers }));
    await page.goto('/');
    await page.getByRole('button', { name: 'Account' }).waitFor();
    return { context, page };
  }

  /** An admin signed in to the console in a page of their own (the code from the test's clock). */
  async function adminPage(email: string) {
    await addStaff({
      config: e2e.server.built.context.config,
      email,
      role: 'admin',
      serverUrl: e2e.server.url,
    });
    const { context, page } = await e2e.newPage();
    const request: APIRequestContext = page.request;
    const token = await invitationToken(e2e.server, email);
    await ok(request.post('/staff/api/join', { data: { token, password: PASSWORD } }));
    await ok(request.post('/staff/api/login', { data: { email, password: PASSWORD } }));
    const { secret } = (await (await ok(request.get('/staff/api/enrolment'))).json()) as {
      secret: string;
    };
    const code = codeAt(secret, e2e.server.clock.now());
    await ok(request.post('/staff/api/enrolment', { data: { code } }));
    e2e.server.clock.advance(30_000);
    return { context, page };
  }

  it(
    'downloads my data: the ZIP arrives under the server’s name and holds the answers',
    { timeout: 60_000 },
    async () => {
      const { context, page } = await applicantOnForm('grace@example.com', {
        first_name: 'Grace',
        last_name: 'Hopper',
      });
      try {
        const download = page.waitForEvent('download');
        await fromAccountMenu(page, 'Download my data');
        const file = await download;
        expect(file.suggestedFilename()).toBe('account-data.zip');
        const zip = unzipSync(new Uint8Array(await readFile((await file.path()) as string)));
        const application = JSON.parse(strFromU8(zip['application.json']!)) as {
          answers: { key: string; answer: unknown }[];
        };
        expect(application.answers).toContainEqual(
          expect.objectContaining({ key: 'last_name', answer: 'Hopper' }),
        );
        const account = JSON.parse(strFromU8(zip['account.json']!)) as { email: string };
        expect(account.email).toBe('grace@example.com');
      } finally {
        await context.close();
      }
    },
  );

  it(
    'deletes an account before submission: signed out with a notice, and the old password no longer logs in',
    { timeout: 90_000 },
    async () => {
      const email = 'leaving@example.com';
      const { context, page } = await applicantOnForm(email, {
        first_name: 'Lee',
        last_name: 'Ving',
      });
      try {
        await fromAccountMenu(page, 'Delete my account');
        const dialog = page.getByRole('dialog', { name: 'Delete my account' });
        await dialog.waitFor();
        const password = dialog.getByLabel('Your password');
        await expect
          .poll(() => password.evaluate((el) => el === document.activeElement))
          .toBe(true);
        await expectNoAxeViolations(page, 'delete dialog before submission');
        await shot(page, 'rights-delete-dialog-1280');

        await password.fill('Not-The-Password-1');
        await dialog.getByRole('button', { name: 'Delete my account' }).click();
        await dialog.getByText(serverMessages.deletionPasswordWrong).waitFor();
        expect(await password.getAttribute('aria-invalid')).toBe('true');
        await expectNoAxeViolations(page, 'delete dialog with a wrong password');
        await page.setViewportSize({ width: 360, height: 740 });
        await shot(page, 'rights-delete-dialog-error-360');
        await page.setViewportSize({ width: 1280, height: 900 });

        await password.fill(PASSWORD);
        await dialog.getByRole('button', { name: 'Delete my account' }).click();
        await page.waitForURL(/\/login$/);
        await page.getByRole('status').filter({ hasText: serverMessages.accountDeleted }).waitFor();
        await shot(page, 'rights-deleted-login-1280');

        await page.getByLabel('Email Address').fill(email);
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: 'Submit' }).click();
        await page.getByText(serverMessages.loginFailed).first().waitFor();
        expect(page.url()).toMatch(/\/login$/);
      } finally {
        await context.close();
      }
    },
  );

  it(
    'after submission files a request, the applicant stays signed in, and an admin completes it from the console',
    { timeout: 120_000 },
    async () => {
      const email = 'submitted@example.com';
      const { context, page } = await applicantOnForm(email, {
        ...validApplication,
        hs_ceeb: '460123',
        first_name: 'Sam',
        last_name: 'Mitted',
      });
      const admin = await adminPage('registrar@northfield.edu');
      try {
        await ok(page.request.post('/api/submit', { data: {} }));
        await page.reload();
        await fromAccountMenu(page, 'Delete my account');
        const dialog = page.getByRole('dialog', { name: 'Delete my account' });
        await dialog.getByText('keeps submitted applications for').waitFor();
        await expectNoAxeViolations(page, 'delete dialog after submission');
        await page.setViewportSize({ width: 360, height: 740 });
        await shot(page, 'rights-request-dialog-360');
        await page.setViewportSize({ width: 1280, height: 900 });
        await dialog.getByLabel('Your password').fill(PASSWORD);
        await dialog.getByRole('button', { name: 'Send my request' }).click();
        await dialog
          .getByRole('status')
          .filter({ hasText: serverMessages.deletionRequested })
          .waitFor();
        await shot(page, 'rights-request-sent-1280');
        await dialog.getByRole('button', { name: 'Done' }).click();
        await dialog.waitFor({ state: 'detached' });
        expect((await page.request.get('/api/profile')).status()).toBe(200);

        await admin.page.goto('/staff');
        await admin.page.getByRole('link', { name: 'Deletion requests' }).click();
        const waiting = admin.page.getByRole('region', { name: 'Requests waiting' });
        await waiting.getByText(email).waitFor();
        await waiting.getByRole('link', { name: /^Sam .*Mitted$/ }).waitFor();
        await expectNoAxeViolations(admin.page, 'staff deletion requests');
        await shot(admin.page, 'rights-staff-deletions-1280', true);
        await admin.page.setViewportSize({ width: 360, height: 740 });
        await shot(admin.page, 'rights-staff-deletions-360', true);
        await admin.page.setViewportSize({ width: 1280, height: 900 });

        await waiting.getByRole('button', { name: /^Complete deletion of Sam .*Mitted$/ }).click();
        const confirm = admin.page.getByRole('dialog', { name: 'Complete this deletion?' });
        await confirm.waitFor();
        await expectNoAxeViolations(admin.page, 'staff deletion confirmation');
        await shot(admin.page, 'rights-staff-confirm-1280');
        await confirm.getByRole('button', { name: 'Delete the account' }).click();
        await admin.page
          .getByRole('status')
          .filter({ hasText: staffMessages.accountDeleted })
          .waitFor();
        await admin.page.getByText('No request is waiting.').waitFor();
        const completed = admin.page.getByRole('region', { name: 'Requests completed' });
        await completed.getByText('registrar@northfield.edu').waitFor();
        expect(await admin.page.getByText(email).count()).toBe(0);
        await shot(admin.page, 'rights-staff-completed-1280', true);

        expect((await page.request.get('/api/profile')).status()).toBe(401);
      } finally {
        await context.close();
        await admin.context.close();
      }
    },
  );
});
