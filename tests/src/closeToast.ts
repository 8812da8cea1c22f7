/**
 * Presses a toast's Close button as a person would: once the toast can take a press. Radix's toast
 * region lets pointer events through only after it has counted its toasts (an effect after the
 * toast is drawn), so a click in the same instant would land on nothing.
 */
import { waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { UserEvent } from '@testing-library/user-event';

function takesPointer(element: HTMLElement): boolean {
  for (let node: HTMLElement | null = element; node; node = node.parentElement)
    if (getComputedStyle(node).pointerEvents === 'none') return false;
  return true;
}

export async function closeToast(user: UserEvent, toast: HTMLElement): Promise<void> {
  const close = within(toast).getByRole('button', { name: 'Close' });
  await waitFor(() => expect(takesPointer(close)).toBe(true));
  await user.click(close);
}
