// @vitest-environment jsdom
/**
 * The staff console's onboarding screens (D157, D166): the join page names the account it sets up
 * and shows the applicant's live checklist, and shows nothing but the refusal for a bad link; the
 * sign-in offers "Forgot password?", whose page answers with the server's words; the recovery codes
 * copy (an announced "Copied") and download as a named text file; the TOTP key reads in fours and
 * copies without spaces. fetch and the clipboard are mocked here only; the console's end-to-end
 * test walks the same screens against a real server.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
  type RouteComponent,
} from '@tanstack/react-router';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PASSWORD_RULES } from '../../contract';
import { staffMessages } from '../../contract/staff';
import { staffPasswordMessages } from '../../contract/staffPassword';
import { TotpKey } from '../../src/features/staff/Enrolment';
import { ForgotPage } from '../../src/features/staff/ForgotPage';
import { JoinPage } from '../../src/features/staff/JoinPage';
import {
  RecoveryCodes,
  recoveryFileName,
  recoveryFileText,
} from '../../src/features/staff/RecoveryCodes';
import { SignIn } from '../../src/features/staff/SignIn';
import { institutionConfig } from '../../src/tenant/tenantData';
import { installDomShims } from './renderWithRouter';

const TOKEN = 'invitation-token-of-the-test-0123456789';
const CODES = ['ABCDE-FGHIJ', 'KLMNO-PQRS2', 'TUVWX-YZ234'];
let calls: { path: string; body: unknown }[];
let answer: (path: string) => { status: number; body: unknown };

const json = ({ status, body }: { status: number; body: unknown }) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  installDomShims();
  calls = [];
  answer = () => ({ status: 404, body: { message: 'Not found.' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input);
      calls.push({ path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      return json(answer(path));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A screen at `/staff/<path>` in a real router, with `/staff` as a probe of where it went. */
function renderAt(path: string, component: RouteComponent, search = '') {
  const root = createRootRoute({ component: () => <Outlet /> });
  const router = createRouter({
    routeTree: root.addChildren([
      createRoute({ getParentRoute: () => root, path: `/staff/${path}`, component }),
      createRoute({
        getParentRoute: () => root,
        path: '/staff',
        component: () => <h1>Console</h1>,
      }),
      createRoute({
        getParentRoute: () => root,
        path: '/staff/forgot',
        component: () => <h1>Forgot probe</h1>,
      }),
    ]),
    history: createMemoryHistory({ initialEntries: [`/staff/${path}${search}`] }),
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

async function noAxeViolations() {
  const results = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false } } });
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
}

describe('the join page', () => {
  it('names the account being set up, shows the live checklist, and sends the password with the token', async () => {
    answer = (path) =>
      path.endsWith('/invitation')
        ? { status: 200, body: { email: 'dean@northfield.edu', role: 'admin' } }
        : { status: 200, body: { message: staffMessages.joined } };
    const router = renderAt('join', JoinPage, `?token=${TOKEN}`);
    const account = await screen.findByTestId('join-account');
    expect(account.textContent).toBe(
      'You are setting up the staff account dean@northfield.edu, as an administrator.',
    );
    expect(calls[0]).toEqual({ path: '/staff/api/invitation', body: { token: TOKEN } });
    // The token leaves the address bar (and so history and referrers) at once.
    await waitFor(() => expect(router.state.location.searchStr).toBe(''));
    const checklist = screen.getByRole('list', { name: 'Password requirements' });
    const items = within(checklist).getAllByRole('listitem');
    expect(items.map((item) => item.dataset.state)).toEqual(PASSWORD_RULES.map(() => 'inactive'));
    const input = screen.getByLabelText('New password');
    expect(input.getAttribute('aria-describedby')).toContain(checklist.id);
    fireEvent.change(input, { target: { value: 'short' } });
    expect(items.map((item) => item.dataset.state)).toEqual(
      PASSWORD_RULES.map((rule) => (rule.holds('short') ? 'success' : 'error')),
    );
    await noAxeViolations();
    fireEvent.change(input, { target: { value: 'Correct-Horse-42' } });
    expect(items.every((item) => item.dataset.state === 'success')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await screen.findByRole('heading', { name: 'Console' });
    expect(calls[1]).toEqual({
      path: '/staff/api/join',
      body: { token: TOKEN, password: 'Correct-Horse-42' },
    });
  });

  it('shows only the refusal for a used or unknown invitation, and asks nothing without a token', async () => {
    answer = () => ({ status: 400, body: { message: staffMessages.invitationInvalid } });
    renderAt('join', JoinPage, `?token=${TOKEN}`);
    expect((await screen.findByRole('alert')).textContent).toBe(staffMessages.invitationInvalid);
    expect(screen.queryByLabelText('New password')).toBeNull();
    cleanup();
    calls = [];
    renderAt('join', JoinPage);
    expect((await screen.findByRole('alert')).textContent).toBe(staffMessages.invitationInvalid);
    expect(calls).toEqual([]);
  });
});

describe('forgot password', () => {
  it('the sign-in links to it, and its page answers with the server’s words', async () => {
    renderAt('login', () => <SignIn />);
    fireEvent.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    await screen.findByRole('heading', { name: 'Forgot probe' });
    cleanup();
    answer = () => ({ status: 200, body: { message: staffPasswordMessages.forgotSent } });
    renderAt('forgot-page', ForgotPage);
    const email = await screen.findByLabelText('E-mail address');
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(calls).toEqual([]);
    fireEvent.change(email, { target: { value: ' Dean@Northfield.edu ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect((await screen.findByRole('status')).textContent).toBe(staffPasswordMessages.forgotSent);
    expect(calls).toEqual([
      { path: '/staff/api/forgot-password', body: { email: 'Dean@Northfield.edu' } },
    ]);
    await noAxeViolations();
  });
});

describe('the recovery codes and the TOTP key', () => {
  it('"Copy" puts the codes on the clipboard and says "Copied" in a live region', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    render(
      <main>
        <RecoveryCodes email="dean@northfield.edu" codes={CODES} />
      </main>,
    );
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(status.textContent).toBe('Copied'));
    expect(writeText).toHaveBeenCalledWith(CODES.join('\n'));
    await noAxeViolations();
  });

  it('says so when the clipboard refuses', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: async () => Promise.reject(new Error('denied')) },
    });
    render(<RecoveryCodes email="dean@northfield.edu" codes={CODES} />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/^Could not copy/));
  });

  it('"Download" saves a .txt named after the college and the account, holding every code', async () => {
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', {
      ...URL,
      createObjectURL: (blob: Blob) => (blobs.push(blob), 'blob:codes'),
      revokeObjectURL: () => {},
    });
    const downloads: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push(this.download);
    });
    render(<RecoveryCodes email="dean@northfield.edu" codes={CODES} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    click.mockRestore();
    const college = institutionConfig.partner_name;
    expect(downloads).toEqual([recoveryFileName(college, 'dean@northfield.edu')]);
    const text = await (blobs[0] as Blob).text();
    expect(text).toBe(recoveryFileText(college, 'dean@northfield.edu', CODES));
    for (const code of CODES) expect(text.split('\n')).toContain(code);
    expect(text).toContain(college);
  });

  it('names the file for people, without what a file system refuses', () => {
    expect(recoveryFileName('Northfield College', 'dean@northfield.edu')).toBe(
      'northfield-college-dean@northfield.edu-recovery-codes.txt',
    );
    expect(recoveryFileName('École Supérieure / Paris', 'a:b@x.org')).toBe(
      'ecole-superieure-paris-a-b@x.org-recovery-codes.txt',
    );
  });

  it('shows the TOTP key in groups of four that copy as the key itself', () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    render(<TotpKey secret={secret} />);
    const key = screen.getByTestId('totp-secret');
    const groups = [...key.children].map((group) => group.textContent);
    expect(groups).toEqual(secret.match(/.{4}/g));
    expect(groups.every((group) => group?.length === 4)).toBe(true);
    // What a selection of the key copies: its text, with no space between the groups.
    expect(key.textContent).toBe(secret);
  });
});
