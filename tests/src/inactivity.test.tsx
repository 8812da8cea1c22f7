// @vitest-environment jsdom
/**
 * The inactivity timeout (SPEC 2.7, 4.2, 9; SECURITY REQ-R-5), on fake timers.
 *
 * react-idle-timer binds its timer functions when the module loads, so vi.useFakeTimers() alone
 * does not reach them: createMocks() re-binds them to the (fake, then real again) globals.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { createMocks } from 'react-idle-timer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  INACTIVITY_PROMPT_MS,
  INACTIVITY_TIMEOUT_MS,
  InactivityGuard,
  inactivityText,
} from '../../src/chrome/InactivityGuard';
import type { InactivityGuardProps } from '../../src/chrome/InactivityGuard';
import { installDomShims } from './renderWithRouter';

installDomShims();

const PROMPT_AT = INACTIVITY_TIMEOUT_MS - INACTIVITY_PROMPT_MS;

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
  createMocks();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  createMocks();
});

/** Moves the fake clock, then lets the deferred keep-alive and React settle. */
async function advance(ms: number) {
  await act(async () => {
    vi.advanceTimersByTime(ms);
  });
}

function renderGuard(props: Partial<InactivityGuardProps> = {}) {
  const onLogout = vi.fn();
  const all: InactivityGuardProps = { enabled: true, onLogout, ...props };
  const view = render(
    <main>
      <button type="button">Save &amp; Continue</button>
      <InactivityGuard {...all} />
    </main>,
  );
  return {
    onLogout: all.onLogout as ReturnType<typeof vi.fn>,
    rerender: (next: Partial<InactivityGuardProps>) =>
      view.rerender(
        <main>
          <button type="button">Save &amp; Continue</button>
          <InactivityGuard {...all} {...next} />
        </main>,
      ),
  };
}

const dialog = () => screen.queryByRole('alertdialog', { name: inactivityText.title });
const stayButton = () => screen.getByRole('button', { name: inactivityText.stay });
const leaveButton = () => screen.getByRole('button', { name: inactivityText.leave });

describe('InactivityGuard', () => {
  it('keeps the SPEC 9 session constants and the SPEC 2.7 texts', () => {
    expect(INACTIVITY_TIMEOUT_MS).toBe(900_000);
    expect(INACTIVITY_PROMPT_MS).toBe(60_000);
    expect(inactivityText).toEqual({
      title: 'Still working?',
      body: 'You have been inactive for a little while. Would you like to stay logged in?',
      stay: 'Yes - Take me back to my application',
      leave: 'No - Please log me out',
    });
  });

  it('opens "Still working?" 60 seconds before the idle point, with focus on "Yes"', async () => {
    const { onLogout } = renderGuard();
    await advance(PROMPT_AT - 1);
    expect(dialog()).toBeNull();

    await advance(1);
    const modal = dialog();
    expect(modal).not.toBeNull();
    // Modal: the page behind it leaves the accessibility tree.
    expect(screen.queryByRole('button', { name: 'Save & Continue' })).toBeNull();
    expect(screen.getByText(inactivityText.title).textContent).toBe('Still working?');
    expect(modal?.textContent).toContain(
      'You have been inactive for a little while. Would you like to stay logged in?',
    );
    const description = document.getElementById(modal?.getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toBe(inactivityText.body);
    expect(stayButton().textContent).toBe('Yes - Take me back to my application');
    expect(leaveButton().textContent).toBe('No - Please log me out');
    expect(document.activeElement).toBe(stayButton());
    expect(onLogout).not.toHaveBeenCalled();
  });

  it('"Yes" closes the modal and restarts the full timeout without logging out', async () => {
    const { onLogout } = renderGuard();
    await advance(PROMPT_AT + 30_000);
    await act(async () => fireEvent.click(stayButton()));
    expect(dialog()).toBeNull();

    // The old idle point passes without a logout; the next prompt comes a full cycle later.
    await advance(PROMPT_AT - 1);
    expect(dialog()).toBeNull();
    expect(onLogout).not.toHaveBeenCalled();
    await advance(1);
    expect(dialog()).not.toBeNull();
    expect(onLogout).not.toHaveBeenCalled();
  });

  it('Escape counts as staying', async () => {
    const { onLogout } = renderGuard();
    await advance(PROMPT_AT);
    await act(async () => fireEvent.keyDown(stayButton(), { key: 'Escape' }));
    expect(dialog()).toBeNull();

    await advance(INACTIVITY_PROMPT_MS);
    expect(onLogout).not.toHaveBeenCalled();
    await advance(PROMPT_AT - INACTIVITY_PROMPT_MS);
    expect(dialog()).not.toBeNull();
  });

  it('"No" logs out once', async () => {
    const { onLogout } = renderGuard();
    await advance(PROMPT_AT);
    await act(async () => fireEvent.click(leaveButton()));
    expect(onLogout).toHaveBeenCalledTimes(1);
    expect(dialog()).toBeNull();

    await advance(INACTIVITY_TIMEOUT_MS * 2);
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('logs out once at the idle point when nobody answers', async () => {
    const { onLogout } = renderGuard();
    await advance(INACTIVITY_TIMEOUT_MS - 1);
    expect(dialog()).not.toBeNull();
    expect(onLogout).not.toHaveBeenCalled();

    await advance(1);
    expect(onLogout).toHaveBeenCalledTimes(1);
    expect(dialog()).toBeNull();

    await advance(INACTIVITY_TIMEOUT_MS * 2);
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('user activity before the prompt restarts the timer', async () => {
    const { onLogout } = renderGuard();
    await advance(PROMPT_AT - 1_000);
    fireEvent.keyDown(document, { key: 'a' });
    await advance(PROMPT_AT - 1);
    expect(dialog()).toBeNull();
    await advance(1);
    expect(dialog()).not.toBeNull();
    expect(onLogout).not.toHaveBeenCalled();
  });

  it('uses timeoutMs and promptMs when given', async () => {
    const { onLogout } = renderGuard({ timeoutMs: 3_000, promptMs: 1_000 });
    await advance(1_999);
    expect(dialog()).toBeNull();
    await advance(1);
    expect(dialog()).not.toBeNull();
    await advance(1_000);
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('REQ-R-5: never logs out while busy, neither prompts; logs out a full timeout after it ends', async () => {
    let busy = true;
    const { onLogout } = renderGuard({ busy: () => busy });
    await advance(PROMPT_AT);
    expect(dialog()).toBeNull();
    await advance(INACTIVITY_TIMEOUT_MS * 4);
    expect(dialog()).toBeNull();
    expect(onLogout).not.toHaveBeenCalled();

    // The submit ends: the next cycle runs as usual.
    busy = false;
    await advance(INACTIVITY_TIMEOUT_MS);
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('REQ-R-5: a request started during the prompt turns the idle point into a restart', async () => {
    let busy = false;
    const { onLogout } = renderGuard({ busy: () => busy });
    await advance(PROMPT_AT);
    expect(dialog()).not.toBeNull();

    busy = true;
    await advance(INACTIVITY_PROMPT_MS);
    expect(onLogout).not.toHaveBeenCalled();
    expect(dialog()).toBeNull();

    busy = false;
    await advance(PROMPT_AT);
    expect(dialog()).not.toBeNull();
    await advance(INACTIVITY_PROMPT_MS);
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('logs out a user who answers "Yes" 15 minutes or more after the last active mark (SPEC 4.2)', async () => {
    const { onLogout } = renderGuard();
    await advance(PROMPT_AT);
    expect(dialog()).not.toBeNull();
    // The tab slept (or its timers were throttled): the clock moved, the idle timer did not fire.
    vi.setSystemTime(Date.now() + INACTIVITY_PROMPT_MS);
    await act(async () => fireEvent.click(stayButton()));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('renders nothing and never logs out while disabled', async () => {
    const { onLogout, rerender } = renderGuard({ enabled: false });
    expect(document.body.querySelectorAll('[role="alertdialog"], [role="dialog"]')).toHaveLength(0);
    await advance(INACTIVITY_TIMEOUT_MS * 4);
    expect(dialog()).toBeNull();
    expect(onLogout).not.toHaveBeenCalled();

    // Logging in starts a fresh timer; logging out again removes the open modal.
    rerender({ enabled: true });
    await advance(PROMPT_AT);
    expect(dialog()).not.toBeNull();
    rerender({ enabled: false });
    expect(dialog()).toBeNull();
    await advance(INACTIVITY_TIMEOUT_MS * 2);
    expect(onLogout).not.toHaveBeenCalled();
  });

  it('the open modal has no axe violations', async () => {
    renderGuard();
    await advance(PROMPT_AT);
    const modal = dialog();
    expect(modal).not.toBeNull();
    vi.useRealTimers();
    const results = await axe.run(document.body);
    expect(
      results.violations.map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`,
      ),
    ).toEqual([]);
  });
});
