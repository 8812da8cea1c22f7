/** Moves focus into content that just appeared: its first control, else the container itself. */
export function focusFirstControl(container: HTMLElement | null): void {
  if (!container) return;
  const control = container.querySelector<HTMLElement>(
    'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])',
  );
  (control ?? container).focus();
}
