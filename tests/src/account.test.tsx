// @vitest-environment jsdom
/**
 * The account cards (SPEC 2.5, 4.3, 4.10, 5.2, 8) inside a real router, with `fetch` stubbed.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  accountMessages,
  NOT_CONFIRMED_CODE,
  serverMessages,
  SESSION_INVALID_MESSAGE,
} from '../../contract';
import { ConfirmCard } from '../../src/features/account/ConfirmCard';
import { ForgotCard } from '../../src/features/account/ForgotCard';
import { LoginCard } from '../../src/features/account/LoginCard';
import { ResetCard } from '../../src/features/account/ResetCard';
import { SignupCard } from '../../src/features/account/SignupCard';
import { accountText } from '../../src/features/account/accountText';
import { PROFILE_KEY } from '../../src/features/application/api/profile';
import { installDomShims, mockFetch, renderWithRouter, userState } from './renderWithRouter';
import type { RenderWithRouterOptions } from './renderWithRouter';
import { closeToast } from './closeToast';

const EMAIL = 'ada@example.com';
const GOOD_PASSWORD = 'Abcdefghij1!';
const ANSWERS = { first_name: 'Ada', last_name: 'Lovelace', us_citizen: true };

installDomShims();

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

/** Renders a card and waits for its title. */
async function renderCard(options: RenderWithRouterOptions & { title: string }) {
  const view = renderWithRouter(options);
  await screen.findByRole('heading', { level: 1, name: options.title });
  return { ...view, user: userEvent.setup() };
}

/** The message linked to an input through `aria-describedby`, or null when it has none. */
function fieldError(input: HTMLElement): string | null {
  const errorId = `${input.id}-error`;
  const describedBy = (input.getAttribute('aria-describedby') ?? '').split(' ');
  if (!describedBy.includes(errorId)) return null;
  return document.getElementById(errorId)?.textContent ?? null;
}

function submitButton() {
  return screen.getByRole('button', { name: 'Submit' });
}

async function expectNoAxeViolations(container: HTMLElement) {
  const results = await axe.run(container);
  expect(
    results.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`,
    ),
  ).toEqual([]);
}

async function expectLocation(
  router: ReturnType<typeof renderWithRouter>['router'],
  pathname: string,
) {
  await waitFor(() => expect(router.state.location.pathname).toBe(pathname));
  await screen.findByRole('heading', { level: 1, name: pathname });
  return userState(router.state.location.state);
}

describe('password checklist (SPEC 4.10)', () => {
  it('shows every rule inactive for an empty password, then error or success while typing', async () => {
    const { user } = await renderCard({ path: '/signup', component: SignupCard, title: 'Sign Up' });
    const list = screen.getByRole('list', { name: 'Password requirements' });
    const stateOf = (label: string) =>
      within(list).getByText(label).closest('li')?.getAttribute('data-state');
    const states = () =>
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('data-state'));

    expect(list.getAttribute('aria-live')).toBe('polite');
    expect(states()).toEqual(Array(6).fill('inactive'));
    expect(within(list).getAllByText(/not checked yet/)).toHaveLength(6);

    const password = screen.getByLabelText('Password');
    await user.type(password, 'A');
    expect(stateOf('is at least 12 characters')).toBe('error');
    expect(stateOf('contains at least one uppercase letter')).toBe('success');
    expect(stateOf('contains at least one lowercase letter')).toBe('error');
    expect(stateOf('contains at least one number')).toBe('error');
    expect(stateOf('contains at least one special character')).toBe('error');
    expect(stateOf('contains no leading or trailing whitespace')).toBe('success');
    expect(
      within(list).getByText('contains at least one uppercase letter').closest('li')?.textContent,
    ).toContain(': met');
    expect(
      within(list).getByText('contains at least one number').closest('li')?.textContent,
    ).toContain(': not met');

    await user.type(password, 'bcdefghij1!');
    expect(states()).toEqual(Array(6).fill('success'));
    // The checklist describes the input.
    expect(password.getAttribute('aria-describedby')).toContain(list.id);
  });

  it('toggles the password visibility', async () => {
    const { user } = await renderCard({ path: '/signup', component: SignupCard, title: 'Sign Up' });
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('type')).toBe('password');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    await user.click(toggle);
    expect(password.getAttribute('type')).toBe('text');
    expect(screen.getByRole('button', { name: 'Hide password' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });
});

describe('Sign Up card', () => {
  it('checks only the password before a submit attempt, and the e-mail after it', async () => {
    const { calls } = mockFetch(() => ({ body: { message: 'unused' } }));
    const { user, container } = await renderCard({
      path: '/signup',
      component: SignupCard,
      title: 'Sign Up',
    });
    const email = screen.getByLabelText('Email Address');
    const password = screen.getByLabelText('Password');

    expect(screen.queryByText(accountText.hints.signupFromForm)).toBeNull(); // no answers carried
    await user.type(email, 'not-an-email');
    await user.type(password, 'abc');
    expect(fieldError(password)).toBe('Your password must be at least 12 characters.');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(fieldError(email)).toBeNull();
    expect(email.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText(accountMessages.emailSignup)).toBeNull();

    await user.click(submitButton());
    expect(fieldError(email)).toBe(accountMessages.emailSignup);
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(email);
    expect(calls).toHaveLength(0);
    await expectNoAxeViolations(container);
  });

  it('goes to /confirm with the username, the server message and the answers it received', async () => {
    const { calls } = mockFetch(() => ({ body: { message: serverMessages.signedUp } }));
    const { user, router, container } = await renderCard({
      path: '/signup',
      component: SignupCard,
      title: 'Sign Up',
      state: { studentAnswers: ANSWERS },
    });
    await expectNoAxeViolations(container);
    // Reached from the form with answers, the card says why the applicant is here.
    expect(screen.getByText(accountText.hints.signupFromForm)).toBeTruthy();

    await user.type(screen.getByLabelText('Email Address'), EMAIL);
    await user.type(screen.getByLabelText('Password'), GOOD_PASSWORD);
    await user.click(submitButton());

    const state = await expectLocation(router, '/confirm');
    expect(state).toEqual({
      username: EMAIL,
      successMessage: serverMessages.signedUp,
      studentAnswers: ANSWERS,
    });
    expect(calls).toEqual([
      {
        path: '/public/signup',
        method: 'POST',
        body: { username: EMAIL, password: GOOD_PASSWORD },
      },
    ]);
  });

  it('shows a "Sign Up Card Error" toast with the server message', async () => {
    mockFetch(() => ({ status: 400, body: { message: accountMessages.passwordCommon } }));
    const { user, router } = await renderCard({
      path: '/signup',
      component: SignupCard,
      title: 'Sign Up',
    });
    await user.type(screen.getByLabelText('Email Address'), EMAIL);
    await user.type(screen.getByLabelText('Password'), GOOD_PASSWORD);
    await user.click(submitButton());

    const toast = await screen.findByRole('listitem', { name: 'Sign Up Card Error' });
    expect(within(toast).getByText('Sign Up Card Error')).toBeTruthy();
    expect(within(toast).getByText(accountMessages.passwordCommon)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/signup');

    await closeToast(user, toast);
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'Sign Up Card Error' })).toBeNull(),
    );
  });

  it('shows a loading Submit button while the call is pending', async () => {
    let answer: (reply: { body: unknown }) => void = () => {};
    mockFetch(() => new Promise((resolve) => (answer = resolve)));
    const { user, router } = await renderCard({
      path: '/signup',
      component: SignupCard,
      title: 'Sign Up',
    });
    await user.type(screen.getByLabelText('Email Address'), EMAIL);
    await user.type(screen.getByLabelText('Password'), GOOD_PASSWORD);
    await user.click(submitButton());

    await waitFor(() => expect(submitButton().getAttribute('aria-busy')).toBe('true'));
    expect((submitButton() as HTMLButtonElement).disabled).toBe(true);
    answer({ body: { message: serverMessages.signedUp } });
    await expectLocation(router, '/confirm');
  });

  it('carries the answers on its "Log in" footer link', async () => {
    const { user, router } = await renderCard({
      path: '/signup',
      component: SignupCard,
      title: 'Sign Up',
      state: { studentAnswers: ANSWERS },
    });
    expect(screen.getByText('Already have an account?')).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'Log in' }));
    expect(await expectLocation(router, '/login')).toEqual({ studentAnswers: ANSWERS });
  });
});

describe('Confirm card', () => {
  it('rejects a 5-digit code, then confirms and goes to /login', async () => {
    const { calls } = mockFetch(() => ({ body: { message: serverMessages.confirmed } }));
    const { user, router, container } = await renderCard({
      path: '/confirm',
      component: ConfirmCard,
      title: 'Confirm Your Account',
      state: { username: EMAIL, successMessage: serverMessages.signedUp, studentAnswers: ANSWERS },
    });
    expect(screen.getByRole('status').textContent).toContain(serverMessages.signedUp);
    expect(screen.queryByLabelText('Email Address')).toBeNull();
    await expectNoAxeViolations(container);

    const code = screen.getByLabelText('Confirmation Code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    await user.type(code, '12345');
    await user.click(submitButton());
    expect(fieldError(code)).toBe('The confirmation code must be exactly 6 numbers.');
    expect(calls).toHaveLength(0);
    await expectNoAxeViolations(container);

    await user.type(code, '6');
    await user.click(submitButton());
    const state = await expectLocation(router, '/login');
    expect(state).toEqual({
      successMessage: serverMessages.confirmed,
      studentAnswers: ANSWERS,
      username: EMAIL,
    });
    expect(calls[0]).toEqual({
      path: '/public/confirm',
      method: 'POST',
      body: { username: EMAIL, code: '123456' },
    });
  });

  it('asks for the e-mail address when navigation state has no username', async () => {
    const { calls } = mockFetch(() => ({ body: { message: serverMessages.resent } }));
    const { user } = await renderCard({
      path: '/confirm',
      component: ConfirmCard,
      title: 'Confirm Your Account',
    });
    const email = screen.getByLabelText('Email Address');
    await user.click(screen.getByRole('button', { name: 'Resend confirmation code?' }));
    expect(fieldError(email)).toBe(accountMessages.resendEmail);
    expect(calls).toHaveLength(0);

    await user.type(email, EMAIL);
    await user.click(screen.getByRole('button', { name: 'Resend confirmation code?' }));
    const toast = await screen.findByRole('listitem', { name: 'Success Notification' });
    expect(within(toast).getByText(serverMessages.resent)).toBeTruthy();
    expect(calls[0]?.body).toEqual({ username: EMAIL });
  });

  it('shows a "Resend Confirmation Code Error" toast when resending fails', async () => {
    mockFetch(() => ({ status: 429, body: { message: serverMessages.tooManyRequests } }));
    const { user } = await renderCard({
      path: '/confirm',
      component: ConfirmCard,
      title: 'Confirm Your Account',
      state: { username: EMAIL },
    });
    await user.click(screen.getByRole('button', { name: 'Resend confirmation code?' }));
    const toast = await screen.findByRole('listitem', { name: 'Resend Confirmation Code Error' });
    expect(within(toast).getByText(serverMessages.tooManyRequests)).toBeTruthy();
  });

  it('shows a "Confirm Card Error" toast when confirming fails', async () => {
    mockFetch(() => ({ status: 400, body: { message: serverMessages.confirmFailed } }));
    const { user } = await renderCard({
      path: '/confirm',
      component: ConfirmCard,
      title: 'Confirm Your Account',
      state: { username: EMAIL },
    });
    await user.type(screen.getByLabelText('Confirmation Code'), '123456');
    await user.click(submitButton());
    const toast = await screen.findByRole('listitem', { name: 'Confirm Card Error' });
    expect(within(toast).getByText(serverMessages.confirmFailed)).toBeTruthy();
  });
});

describe('Log In card', () => {
  it('checks nothing before a submit attempt, then shows the login messages', async () => {
    const { calls } = mockFetch(() => ({ body: { message: 'unused' } }));
    const { user, container } = await renderCard({
      path: '/login',
      component: LoginCard,
      title: 'Log In',
    });
    await expectNoAxeViolations(container);
    const email = screen.getByLabelText('Email Address');
    const password = screen.getByLabelText('Password');
    await user.type(email, 'nope');
    expect(fieldError(email)).toBeNull();

    await user.click(submitButton());
    expect(fieldError(email)).toBe(accountMessages.emailLogin);
    expect(fieldError(password)).toBe(accountMessages.passwordRequired);
    expect(calls).toHaveLength(0);
    await expectNoAxeViolations(container);
  });

  it('shows the session-invalid message from navigation state as an alert', async () => {
    const { container } = await renderCard({
      path: '/login',
      component: LoginCard,
      title: 'Log In',
      state: { errorMessage: SESSION_INVALID_MESSAGE },
    });
    expect(screen.getByRole('alert').textContent).toBe(SESSION_INVALID_MESSAGE);
    await expectNoAxeViolations(container);
  });

  it('goes to /about with the answers and the server message on success', async () => {
    const { calls } = mockFetch(() => ({ body: { message: serverMessages.loggedIn } }));
    const { user, router } = await renderCard({
      path: '/login',
      component: LoginCard,
      title: 'Log In',
      state: { studentAnswers: ANSWERS },
    });
    await user.type(screen.getByLabelText('Email Address'), EMAIL);
    await user.type(screen.getByLabelText('Password'), 'any password');
    await user.click(submitButton());

    // The login asks for no page: the application resumes on the last one (D113).
    expect(await expectLocation(router, '/about')).toEqual({
      studentAnswers: ANSWERS,
      successMessage: serverMessages.loggedIn,
      resume: true,
    });
    expect(calls[0]).toEqual({
      path: '/public/login',
      method: 'POST',
      body: { username: EMAIL, password: 'any password' },
    });
  });

  it('drops what an earlier session cached before the application loads (no stale resume, no other applicant)', async () => {
    mockFetch(() => ({ body: { message: serverMessages.loggedIn } }));
    const { user, router, queryClient } = await renderCard({
      path: '/login',
      component: LoginCard,
      title: 'Log In',
    });
    // What the tab cached in an earlier session, however that one ended (D127).
    queryClient.setQueryData(PROFILE_KEY, {
      username: 'someone-else@example.com',
      last_page: '/about',
    });
    await user.type(screen.getByLabelText('Email Address'), EMAIL);
    await user.type(screen.getByLabelText('Password'), 'any password');
    await user.click(submitButton());

    await expectLocation(router, '/about');
    expect(queryClient.getQueryData(PROFILE_KEY)).toBeUndefined();
  });

  it('goes to /confirm with the username when the account is not confirmed (403)', async () => {
    mockFetch(() => ({
      status: 403,
      body: { message: serverMessages.notConfirmed, code: NOT_CONFIRMED_CODE },
    }));
    const { user, router } = await renderCard({
      path: '/login',
      component: LoginCard,
      title: 'Log In',
      state: { studentAnswers: ANSWERS },
    });
    await user.type(screen.getByLabelText('Email Address'), EMAIL);
    await user.type(screen.getByLabelText('Password'), GOOD_PASSWORD);
    await user.click(submitButton());

    expect(await expectLocation(router, '/confirm')).toEqual({
      username: EMAIL,
      errorMessage: serverMessages.notConfirmed,
      studentAnswers: ANSWERS,
    });
  });

  it('shows a "Login Card Error" toast for a failed login', async () => {
    mockFetch(() => ({ status: 400, body: { message: serverMessages.loginFailed } }));
    const { user, router } = await renderCard({
      path: '/login',
      component: LoginCard,
      title: 'Log In',
    });
    await user.type(screen.getByLabelText('Email Address'), EMAIL);
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(submitButton());
    const toast = await screen.findByRole('listitem', { name: 'Login Card Error' });
    expect(within(toast).getByText(serverMessages.loginFailed)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('resends a code only for a valid e-mail address, then goes to /confirm', async () => {
    const { calls } = mockFetch(() => ({ body: { message: serverMessages.resent } }));
    const { user, router } = await renderCard({
      path: '/login',
      component: LoginCard,
      title: 'Log In',
      state: { studentAnswers: ANSWERS },
    });
    const email = screen.getByLabelText('Email Address');
    const resend = screen.getByRole('button', { name: 'Resend confirmation code?' });
    await user.click(resend);
    expect(fieldError(email)).toBe(
      'You must provide a valid email address to resend a confirmation code.',
    );
    await user.type(email, 'still-not-valid');
    await user.click(resend);
    expect(fieldError(email)).toBe(accountMessages.resendEmail);
    expect(calls).toHaveLength(0);

    await user.clear(email);
    await user.type(email, EMAIL);
    expect(fieldError(email)).toBeNull();
    await user.click(resend);
    expect(await expectLocation(router, '/confirm')).toEqual({
      username: EMAIL,
      successMessage: serverMessages.resent,
      studentAnswers: ANSWERS,
    });
    expect(calls[0]).toEqual({
      path: '/public/resend-confirm',
      method: 'POST',
      body: { username: EMAIL },
    });
  });

  it('links to /forgot carrying the answers', async () => {
    const { user, router } = await renderCard({
      path: '/login',
      component: LoginCard,
      title: 'Log In',
      state: { studentAnswers: ANSWERS },
    });
    await user.click(screen.getByRole('link', { name: 'Forgot password?' }));
    expect(await expectLocation(router, '/forgot')).toEqual({ studentAnswers: ANSWERS });
  });
});

describe('Forgot Password card', () => {
  it('shows a closable success toast with the server message', async () => {
    const { calls } = mockFetch(() => ({ body: { message: serverMessages.forgotSent } }));
    const { user, container } = await renderCard({
      path: '/forgot',
      component: ForgotCard,
      title: 'Forgot Password',
    });
    await expectNoAxeViolations(container);
    const email = screen.getByLabelText('Email Address');
    await user.click(submitButton());
    expect(fieldError(email)).toBe(accountMessages.emailSignup);
    expect(calls).toHaveLength(0);

    await user.type(email, EMAIL);
    await user.click(submitButton());
    const toast = await screen.findByRole('listitem', { name: 'Success Notification' });
    expect(within(toast).getByText(serverMessages.forgotSent)).toBeTruthy();
    expect(calls[0]?.body).toEqual({ username: EMAIL });
    await closeToast(user, toast);
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'Success Notification' })).toBeNull(),
    );
  });

  it('shows a "Forgot Password Card Error" toast when the call fails', async () => {
    mockFetch(() => ({ status: 429, body: { message: serverMessages.tooManyRequests } }));
    const { user } = await renderCard({
      path: '/forgot',
      component: ForgotCard,
      title: 'Forgot Password',
    });
    await user.type(screen.getByLabelText('Email Address'), EMAIL);
    await user.click(submitButton());
    const toast = await screen.findByRole('listitem', { name: 'Forgot Password Card Error' });
    expect(within(toast).getByText(serverMessages.tooManyRequests)).toBeTruthy();
  });
});

describe('Reset Password card', () => {
  const search = `?username=${encodeURIComponent(EMAIL)}&id=abc123token`;

  it('checks that the passwords match, then resets and goes to /login', async () => {
    const { calls } = mockFetch(() => ({ body: { message: serverMessages.resetDone } }));
    const { user, router, container } = await renderCard({
      path: '/reset',
      component: ResetCard,
      title: 'Reset Password',
      search,
    });
    await expectNoAxeViolations(container);
    expect(screen.queryByRole('alert')).toBeNull();
    const list = screen.getByRole('list', { name: 'Password requirements' });
    const matchState = () =>
      within(list).getByText('passwords must match').closest('li')?.getAttribute('data-state');
    expect(matchState()).toBe('inactive');

    const password = screen.getByLabelText('New Password');
    const confirm = screen.getByLabelText('Confirm Password');
    await user.type(password, GOOD_PASSWORD);
    await user.type(confirm, 'Abcdefghij1?');
    expect(matchState()).toBe('error');
    await user.click(submitButton());
    expect(fieldError(confirm)).toBe('passwords must match');
    expect(calls).toHaveLength(0);
    await expectNoAxeViolations(container);

    await user.clear(confirm);
    await user.type(confirm, GOOD_PASSWORD);
    expect(matchState()).toBe('success');
    await user.click(submitButton());

    expect(await expectLocation(router, '/login')).toEqual({
      successMessage: serverMessages.resetDone,
      username: EMAIL,
    });
    expect(calls[0]).toEqual({
      path: '/public/reset-password',
      method: 'POST',
      body: {
        username: EMAIL,
        password: GOOD_PASSWORD,
        confirm_password: GOOD_PASSWORD,
        id: 'abc123token',
      },
    });
  });

  it('explains an incomplete link when the id is missing', async () => {
    await renderCard({
      path: '/reset',
      component: ResetCard,
      title: 'Reset Password',
      search: `?username=${encodeURIComponent(EMAIL)}`,
    });
    expect(screen.getByRole('alert').textContent).toBe(accountMessages.resetIdMissing);
  });

  it('shows a "Reset Password Card Error" toast when the link is rejected', async () => {
    mockFetch(() => ({ status: 400, body: { message: serverMessages.resetFailed } }));
    const { user } = await renderCard({
      path: '/reset',
      component: ResetCard,
      title: 'Reset Password',
      search: '?username=a%40b.example&id=123456',
    });
    await user.type(screen.getByLabelText('New Password'), GOOD_PASSWORD);
    await user.type(screen.getByLabelText('Confirm Password'), GOOD_PASSWORD);
    await user.click(submitButton());
    const toast = await screen.findByRole('listitem', { name: 'Reset Password Card Error' });
    expect(within(toast).getByText(serverMessages.resetFailed)).toBeTruthy();
  });
});
