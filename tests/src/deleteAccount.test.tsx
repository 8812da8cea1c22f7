// @vitest-environment jsdom
/**
 * "Delete my account" (D152) as the applicant meets it: what the dialog says before and after
 * submission (the college's own retention, from its institution file), a wrong password or a server
 * error next to the field with the password kept, one request however often the button is pressed,
 * and what a success does. fetch is mocked here only; the end-to-end test deletes for real.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { useRef, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accountMessages, GENERIC_ERROR_MESSAGE, serverMessages } from '../../contract';
import DeleteAccountDialog from '../../src/features/account/DeleteAccountDialog';
import { institutionConfig } from '../../src/tenant/tenantData';
import { installDomShims } from './renderWithRouter';

const PASSWORD = 'Correct-Horse-42';
let answer: () => Promise<Response>;
let sent: { method?: string; body: unknown }[];

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  installDomShims();
  sent = [];
  answer = async () => json(200, { outcome: 'deleted', message: serverMessages.accountDeleted });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      expect(String(input)).toBe('/api/account');
      sent.push({ method: init?.method, body: JSON.parse(String(init?.body)) });
      return answer();
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function expectNoAxeViolations(context: Element) {
  const results = await axe.run(context);
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
}

function Harness({ submitted, onDeleted }: { submitted: boolean; onDeleted: () => void }) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button type="button" ref={opener} onClick={() => setOpen(true)}>
        Account
      </button>
      <DeleteAccountDialog
        open={open}
        onOpenChange={setOpen}
        submitted={submitted}
        returnFocusTo={opener}
        onDeleted={onDeleted}
      />
    </>
  );
}

async function openDialog(submitted: boolean) {
  const onDeleted = vi.fn();
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Harness submitted={submitted} onDeleted={onDeleted} />
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Account' }));
  const dialog = await screen.findByRole('dialog', { name: 'Delete my account' });
  const password = within(dialog).getByLabelText('Your password');
  return { user, dialog, password, onDeleted };
}

describe('the "Delete my account" dialog', () => {
  it('before submission: says everything goes at once, focuses the password, deletes and hands on the message', async () => {
    const { user, dialog, password, onDeleted } = await openDialog(false);
    expect(dialog.textContent).toContain('everything in it at once');
    expect(dialog.textContent).not.toContain(institutionConfig.partner_name);
    expect(document.activeElement).toBe(password);
    await expectNoAxeViolations(dialog);

    await user.type(password, PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledWith(serverMessages.accountDeleted));
    expect(sent).toEqual([{ method: 'DELETE', body: { password: PASSWORD } }]);
  });

  it('after submission: names the college and how long it keeps the application, then confirms the request and stays signed in', async () => {
    answer = async () =>
      json(200, { outcome: 'requested', message: serverMessages.deletionRequested });
    const { user, dialog, password, onDeleted } = await openDialog(true);
    const years = institutionConfig.retention.submitted_years;
    expect(dialog.textContent).toContain(
      `${institutionConfig.partner_name} keeps submitted applications for ${years} year`,
    );
    await expectNoAxeViolations(dialog);

    await user.type(password, PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Send my request' }));
    const status = await within(dialog).findByRole('status');
    expect(status.textContent).toBe(serverMessages.deletionRequested);
    expect(onDeleted).not.toHaveBeenCalled();
    const close = within(dialog).getByRole('button', { name: 'Done' });
    expect(within(dialog).queryByLabelText('Your password')).toBeNull();
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Done'));
    await expectNoAxeViolations(dialog);

    await user.click(close);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Account' }));
  });

  it('shows a wrong password next to the field, keeps what was typed, and lets the applicant try again', async () => {
    answer = async () => json(400, { message: serverMessages.deletionPasswordWrong });
    const { user, dialog, password, onDeleted } = await openDialog(false);
    await user.type(password, 'Not-The-Password-1');
    await user.keyboard('{Enter}');
    const error = await within(dialog).findByText(serverMessages.deletionPasswordWrong);
    expect(password.getAttribute('aria-invalid')).toBe('true');
    const describedBy = password.getAttribute('aria-describedby') ?? '';
    expect(describedBy.split(' ')).toContain(error.closest('p')?.id);
    expect((password as HTMLInputElement).value).toBe('Not-The-Password-1');
    expect(document.activeElement).toBe(password);
    expect(onDeleted).not.toHaveBeenCalled();
    await expectNoAxeViolations(dialog);

    answer = async () => json(500, { message: GENERIC_ERROR_MESSAGE });
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await within(dialog).findByText(GENERIC_ERROR_MESSAGE);
    expect(within(dialog).queryByText(serverMessages.deletionPasswordWrong)).toBeNull();
    expect(sent).toHaveLength(2);
  });

  it('asks for the password before sending anything', async () => {
    const { user, dialog } = await openDialog(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await within(dialog).findByText(accountMessages.passwordRequired);
    expect(sent).toEqual([]);
  });

  it('while pending: the button says so and is disabled, more presses and Escape change nothing', async () => {
    let finish: (response: Response) => void = () => undefined;
    answer = () => new Promise((resolve) => (finish = resolve));
    const { user, dialog, password, onDeleted } = await openDialog(false);
    await user.type(password, PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    const busy = await within(dialog).findByRole('button', { name: 'Deleting…' });
    expect(busy.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(busy);
    await user.click(busy);
    await user.keyboard('{Enter}');
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Delete my account' })).toBeTruthy();
    expect(sent).toHaveLength(1);

    finish(json(200, { outcome: 'deleted', message: serverMessages.accountDeleted }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledTimes(1));
  });

  it('starts afresh when opened again: no password kept', async () => {
    const { user, dialog, password } = await openDialog(false);
    await user.type(password, 'typed');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Account' }));
    await user.click(screen.getByRole('button', { name: 'Account' }));
    const again = await screen.findByRole('dialog', { name: 'Delete my account' });
    expect((within(again).getByLabelText('Your password') as HTMLInputElement).value).toBe('');
  });
});
