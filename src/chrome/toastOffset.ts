/**
 * Phones show toasts at the top (chrome.module.css): they start under the header, so the institution
 * and the Account button stay in sight (D160), and rise with it as the page scrolls it away. The
 * offset is a custom property on the root, set through the CSSOM (no inline style attribute: CSP).
 */
import { useLayoutEffect } from 'react';

export const TOAST_TOP_PROPERTY = '--toast-top';

/** While `active`, keeps `--toast-top` at the header's bottom edge on screen (0 once scrolled off). */
export function useToastsBelowHeader(active: boolean): void {
  useLayoutEffect(() => {
    if (!active) return;
    const root = document.documentElement;
    const place = () => {
      const bottom = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
      root.style.setProperty(TOAST_TOP_PROPERTY, `${Math.max(0, Math.round(bottom))}px`);
    };
    place();
    window.addEventListener('scroll', place, { passive: true });
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place);
      window.removeEventListener('resize', place);
    };
  }, [active]);
}
