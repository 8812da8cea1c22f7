// @vitest-environment jsdom
/**
 * The shared chrome (SPEC 2.6, 2.7, 2.8, 9): toasts, footer dialogs, the account popover, the
 * error and loading screens.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { institutionConfig } from '../../definitions/config';
import { AccountPopover } from '../../src/chrome/AccountPopover';
import { ErrorScreen, NotFoundOrErrorFallback } from '../../src/chrome/ErrorScreen';
import { Footer } from '../../src/chrome/Footer';
import { LoadingScreen } from '../../src/chrome/LoadingScreen';
import { PlainToastLayer } from '../../src/chrome/PlainToastLayer';
import {
  DEFAULT_TOAST_MS,
  ERROR_BOUNDARY_TOAST_MS,
  ToastProvider,
  useToast,
} from '../../src/chrome/toast';
import type { ToastOptions } from '../../src/chrome/toast';
import { installDomShims, renderWithRouter, userState } from './renderWithRouter';
import { closeToast } from './closeToast';

installDomShims();

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function expectNoAxeViolations(context: Element) {
  const results = await axe.run(context);
  expect(
    results.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`,
    ),
  ).toEqual([]);
}

const ANSWERS = { first_name: 'Ada', us_citizen: true };

describe('toasts', () => {
  function ShowButton({ toast }: { toast: ToastOptions }) {
    const { show } = useToast();
    return (
      <button type="button" onClick={() => show(toast)}>
        Show
      </button>
    );
  }

  function renderToast(toast: ToastOptions) {
    return render(
      <ToastProvider>
        <main>
          <ShowButton toast={toast} />
        </main>
      </ToastProvider>,
    );
  }

  it('keeps the SPEC 9 durations', () => {
    expect(DEFAULT_TOAST_MS).toBe(5_000);
    expect(ERROR_BOUNDARY_TOAST_MS).toBe(300_000);
  });

  it('shows a labelled toast with its title, message and a Close button that calls onClose', async () => {
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderToast({
      title: 'Sign Up Card Error',
      label: 'Sign Up Card Error',
      description: 'Something failed.',
      severity: 'error',
      onClose,
    });
    expect(screen.queryByRole('listitem')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Show' }));
    const toast = await screen.findByRole('listitem', { name: 'Sign Up Card Error' });
    expect(screen.getByRole('region', { name: 'Notifications' })).toBeTruthy();
    expect(toast.getAttribute('data-severity')).toBe('error');
    expect(within(toast).getByText('Something failed.')).toBeTruthy();
    await expectNoAxeViolations(screen.getByRole('region', { name: 'Notifications' }));

    await closeToast(user, toast);
    await waitFor(() => expect(screen.queryByRole('listitem')).toBeNull());
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  /** The toast layer is fetched on demand; warm the module so fake timers need no real wait. */
  async function showWithFakeTimers() {
    await import('../../src/chrome/ToastLayer');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    });
  }

  it('closes by itself after 5 seconds by default', async () => {
    vi.useFakeTimers();
    const onClose = vi.fn();
    renderToast({ title: 'Success', description: 'Saved.', severity: 'success', onClose });
    await showWithFakeTimers();
    act(() => {
      vi.advanceTimersByTime(DEFAULT_TOAST_MS - 100);
    });
    expect(screen.getByText('Saved.')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByText('Saved.')).toBeNull();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('keeps a toast for its own duration', async () => {
    vi.useFakeTimers();
    renderToast({
      title: 'Error',
      description: 'Boundary.',
      severity: 'error',
      duration: ERROR_BOUNDARY_TOAST_MS,
    });
    await showWithFakeTimers();
    act(() => {
      vi.advanceTimersByTime(ERROR_BOUNDARY_TOAST_MS - 1_000);
    });
    expect(screen.getByText('Boundary.')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(2_000);
    });
    expect(screen.queryByText('Boundary.')).toBeNull();
  });

  it('still shows, announces and closes a toast when the Radix layer could not be fetched', async () => {
    vi.useFakeTimers();
    const onClosed = vi.fn();
    const toast = {
      id: 1,
      title: 'Log In Card Error',
      description: 'Offline.',
      severity: 'error' as const,
    };
    render(<PlainToastLayer toasts={[toast]} onClosed={onClosed} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Log In Card Error');
    expect(alert.textContent).toContain('Offline.');
    expect(screen.getByRole('region', { name: 'Notifications' })).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(DEFAULT_TOAST_MS + 10);
    });
    expect(onClosed).toHaveBeenCalledWith(toast);
    fireEvent.click(within(alert).getByRole('button', { name: 'Close' }));
    expect(onClosed).toHaveBeenCalledTimes(2);
  });

  it('throws a named error outside its provider', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<ShowButton toast={{ title: 'x', severity: 'success' }} />)).toThrowError(
      /useToast must be used inside <ToastProvider>/,
    );
    spy.mockRestore();
  });
});

describe('footer and its dialogs', () => {
  it('shows the institution address', async () => {
    const { container } = render(<Footer />);
    const footer = screen.getByRole('contentinfo');
    expect(footer.textContent).toContain(institutionConfig.partner_name);
    expect(footer.textContent).toContain(institutionConfig.address.line_1);
    expect(footer.textContent).toContain(
      `${institutionConfig.address.city}, ${institutionConfig.address.state} ${institutionConfig.address.zip}`,
    );
    await expectNoAxeViolations(container);
  });

  it('opens Help with the help mailto subject, a PDF reader link and the contact details', async () => {
    const user = userEvent.setup();
    render(<Footer />);
    const opener = screen.getByRole('button', { name: 'Help' });
    await user.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'Help' });

    expect(dialog.textContent).toContain(
      'For technical assistance using this application, please email us at',
    );
    const mail = within(dialog).getByRole('link', { name: institutionConfig.help_email });
    const href = mail.getAttribute('href') ?? '';
    expect(href).toBe(
      `mailto:${institutionConfig.help_email}?subject=Help%20ID%3A%20Northfield%20College%20Application%20(please%20keep%20this%20as%20your%20subject)`,
    );
    expect(decodeURIComponent(new URL(href).searchParams.get('subject') ?? '')).toBe(
      'Help ID: Northfield College Application (please keep this as your subject)',
    );
    expect(
      within(dialog)
        .getByRole('link', { name: /PDF reader/ })
        .getAttribute('href'),
    ).toBe(institutionConfig.links.pdf_reader);
    expect(within(dialog).getByRole('heading', { name: 'Contact Us' })).toBeTruthy();
    expect(dialog.textContent).toContain('Office of Admission');
    expect(dialog.textContent).toContain(institutionConfig.phone);
    expect(dialog.textContent).toContain(institutionConfig.address.line_1);
    await expectNoAxeViolations(dialog);

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);
  });

  it('opens the Privacy Policy and Cookie Notice with browser help links and a copyright line', async () => {
    const user = userEvent.setup();
    render(<Footer />);
    const opener = screen.getByRole('button', { name: 'Privacy Policy and Cookie Notice' });
    await user.click(opener);
    const dialog = await screen.findByRole('dialog', {
      name: 'Privacy Policy and Cookie Notice',
    });
    for (const browser of ['Chrome', 'Firefox', 'Safari', 'Edge'])
      expect(
        within(dialog)
          .getByRole('link', { name: new RegExp(browser) })
          .getAttribute('href'),
      ).toMatch(/^https:\/\//);
    expect(
      within(dialog)
        .getByRole('link', { name: /privacy policy/ })
        .getAttribute('href'),
    ).toBe(institutionConfig.privacy_policy_url);
    expect(
      within(dialog).getByText(`© ${new Date().getFullYear()} ${institutionConfig.partner_name}`),
    ).toBeTruthy();
    await expectNoAxeViolations(dialog);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);
  });
});

describe('account popover', () => {
  it('offers Sign In and Create Account carrying the answers when logged out', async () => {
    const onLogout = vi.fn();
    const { router, container } = renderWithRouter({
      path: '/about',
      component: () => (
        <AccountPopover
          loggedIn={false}
          username={null}
          studentAnswers={ANSWERS}
          returnTo={{}}
          onLogout={onLogout}
          onLogoutEverywhere={vi.fn()}
          onDownloadData={vi.fn()}
          onDeleteAccount={vi.fn()}
        />
      ),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Account' }));
    const popover = await screen.findByRole('dialog', { name: 'Account' });
    expect(within(popover).getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe(
      '/login',
    );
    expect(within(popover).getByRole('link', { name: 'Create Account' }).getAttribute('href')).toBe(
      '/signup',
    );
    expect(within(popover).queryByRole('button', { name: 'Log Out' })).toBeNull();
    await expectNoAxeViolations(popover);
    await expectNoAxeViolations(container);

    await user.click(within(popover).getByRole('link', { name: 'Create Account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signup'));
    expect(userState(router.state.location.state)).toEqual({ studentAnswers: ANSWERS });
    expect(screen.queryByRole('dialog', { name: 'Account' })).toBeNull();
  });

  it('carries the answers and the page to come back to (D159) to /login from Sign In', async () => {
    const { router } = renderWithRouter({
      path: '/about',
      component: () => (
        <AccountPopover
          loggedIn={false}
          username={null}
          studentAnswers={ANSWERS}
          returnTo={{ next: '/education' }}
          onLogout={vi.fn()}
          onLogoutEverywhere={vi.fn()}
          onDownloadData={vi.fn()}
          onDeleteAccount={vi.fn()}
        />
      ),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Account' }));
    const signIn = await screen.findByRole('link', { name: 'Sign In' });
    expect(signIn.getAttribute('href')).toBe('/login?next=%2Feducation');
    expect(screen.getByRole('link', { name: 'Create Account' }).getAttribute('href')).toBe(
      '/signup?next=%2Feducation',
    );
    await user.click(signIn);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ next: '/education' });
    expect(userState(router.state.location.state)).toEqual({ studentAnswers: ANSWERS });
  });

  it('shows the username and a Log Out button when logged in', async () => {
    const onLogout = vi.fn();
    renderWithRouter({
      path: '/about',
      component: () => (
        <AccountPopover
          loggedIn
          username="ada@example.com"
          studentAnswers={{}}
          returnTo={{}}
          onLogout={onLogout}
          onLogoutEverywhere={vi.fn()}
          onDownloadData={vi.fn()}
          onDeleteAccount={vi.fn()}
        />
      ),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Account' }));
    const popover = await screen.findByRole('dialog', { name: 'Account' });
    expect(within(popover).getByText('ada@example.com')).toBeTruthy();
    expect(popover.querySelector('svg')).not.toBeNull();
    expect(within(popover).queryByRole('link', { name: 'Sign In' })).toBeNull();
    await expectNoAxeViolations(popover);

    await user.click(within(popover).getByRole('button', { name: 'Log Out' }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('offers to log out of all devices when logged in (D142), a step apart from Log Out', async () => {
    const onLogout = vi.fn();
    const onLogoutEverywhere = vi.fn();
    renderWithRouter({
      path: '/about',
      component: () => (
        <AccountPopover
          loggedIn
          username="ada@example.com"
          studentAnswers={{}}
          returnTo={{}}
          onLogout={onLogout}
          onLogoutEverywhere={onLogoutEverywhere}
          onDownloadData={vi.fn()}
          onDeleteAccount={vi.fn()}
        />
      ),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Account' }));
    const popover = await screen.findByRole('dialog', { name: 'Account' });
    await user.click(within(popover).getByRole('button', { name: 'Log out of all devices' }));
    expect(onLogoutEverywhere).toHaveBeenCalledTimes(1);
    expect(onLogout).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog', { name: 'Account' })).toBeNull();
  });

  it('offers Download my data and Delete my account when logged in (D152), each closing the popover', async () => {
    const onDownloadData = vi.fn();
    const onDeleteAccount = vi.fn();
    renderWithRouter({
      path: '/about',
      component: () => (
        <AccountPopover
          loggedIn
          username="ada@example.com"
          studentAnswers={{}}
          returnTo={{}}
          onLogout={vi.fn()}
          onLogoutEverywhere={vi.fn()}
          onDownloadData={onDownloadData}
          onDeleteAccount={onDeleteAccount}
        />
      ),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Account' }));
    let popover = await screen.findByRole('dialog', { name: 'Account' });
    await expectNoAxeViolations(popover);
    await user.click(within(popover).getByRole('button', { name: 'Download my data' }));
    expect(onDownloadData).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog', { name: 'Account' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Account' }));
    popover = await screen.findByRole('dialog', { name: 'Account' });
    const remove = within(popover).getByRole('button', { name: 'Delete my account' });
    expect(remove.getAttribute('aria-haspopup')).toBe('dialog');
    await user.click(remove);
    expect(onDeleteAccount).toHaveBeenCalledTimes(1);
    expect(onDownloadData).toHaveBeenCalledTimes(1);
  });

  it('offers neither to a visitor who is not logged in', async () => {
    renderWithRouter({
      path: '/about',
      component: () => (
        <AccountPopover
          loggedIn={false}
          username={null}
          studentAnswers={{}}
          returnTo={{}}
          onLogout={vi.fn()}
          onLogoutEverywhere={vi.fn()}
          onDownloadData={vi.fn()}
          onDeleteAccount={vi.fn()}
        />
      ),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Account' }));
    const popover = await screen.findByRole('dialog', { name: 'Account' });
    expect(within(popover).queryByRole('button', { name: 'Download my data' })).toBeNull();
    expect(within(popover).queryByRole('button', { name: 'Delete my account' })).toBeNull();
  });
});

describe('error and loading screens', () => {
  it('shows the root error screen (SPEC 2.8)', async () => {
    const { container } = render(
      <main>
        <ErrorScreen />
      </main>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Something went wrong.' })).toBeTruthy();
    expect(
      screen.getByText(
        'The issue that caused you to see this has been logged. We will get it fixed as soon as possible.',
      ),
    ).toBeTruthy();
    await expectNoAxeViolations(container);
  });

  it('shows the generic fallback with a status or a message', async () => {
    const { container, rerender } = render(
      <main>
        <NotFoundOrErrorFallback status={404} />
      </main>,
    );
    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeTruthy();
    expect(screen.getByText('404 Not Found')).toBeTruthy();
    await expectNoAxeViolations(container);
    rerender(<NotFoundOrErrorFallback status={405} />);
    expect(screen.getByText('405 Method Not Allowed')).toBeTruthy();
    rerender(<NotFoundOrErrorFallback status={400} />);
    expect(screen.getByText('400 Bad Request')).toBeTruthy();
    rerender(<NotFoundOrErrorFallback error={new Error('Boom')} />);
    expect(screen.getByText('Boom')).toBeTruthy();
  });

  it('shows a loading status', async () => {
    const { container } = render(
      <main>
        <LoadingScreen />
      </main>,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    await expectNoAxeViolations(container);
  });
});
