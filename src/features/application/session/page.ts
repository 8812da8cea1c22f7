/**
 * What the session needs of the browser page, behind one port so the session runs (and is
 * tested) without a DOM.
 */
export interface PagePort {
  scrollTop(): void;
  /** `listener` runs when the page is being left (`pagehide`); returns the removal. */
  onLeave(listener: () => void): () => void;
  /** `listener` runs when the page is hidden (another tab, a minimised window); returns the removal. */
  onHidden(listener: () => void): () => void;
}

export const browserPage: PagePort = {
  scrollTop: () => window.scrollTo({ top: 0 }),
  onLeave(listener) {
    window.addEventListener('pagehide', listener);
    return () => window.removeEventListener('pagehide', listener);
  },
  onHidden(listener) {
    const hidden = () => {
      if (document.visibilityState === 'hidden') listener();
    };
    document.addEventListener('visibilitychange', hidden);
    return () => document.removeEventListener('visibilitychange', hidden);
  },
};
