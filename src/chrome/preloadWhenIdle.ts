/**
 * When the code the first page does not draw may load (D198): once the page's first control is
 * usable, the page has finished loading, and the browser is idle. On-demand chunks (the account
 * menu, the toast layer, the lookup, tabs and file renderers) then arrive before they are needed
 * without competing with what the first page waits for. What the applicant reaches for sooner
 * loads at once (the account button, the address field).
 */

/** The performance mark set when the first page's first control is usable (read by the tests). */
export const FIRST_INPUT_MARK = 'first-input-usable';

/** A control of the page itself (not the header's), as soon as it is in the document. */
const CONTROL = 'main :is(input, select, textarea, button, a[href])';
/** Where a page never draws a control (an error screen), loading goes ahead this long after `load`. */
const NO_CONTROL_MS = 5_000;
/** The longest wait for an idle moment once the rest holds. */
const IDLE_TIMEOUT_MS = 3_000;

let firstInput: Promise<void> | null = null;

/** Resolves once a control of the page is in the document (marked `FIRST_INPUT_MARK`). */
export function firstInputUsable(): Promise<void> {
  firstInput ??= new Promise<void>((resolve) => {
    const done = () => {
      observer.disconnect();
      window.clearTimeout(fallback);
      if (performance.getEntriesByName(FIRST_INPUT_MARK).length === 0)
        performance.mark(FIRST_INPUT_MARK);
      resolve();
    };
    const observer = new MutationObserver(() => {
      if (document.querySelector(CONTROL)) done();
    });
    let fallback = 0;
    void pageLoaded().then(() => (fallback = window.setTimeout(done, NO_CONTROL_MS)));
    if (document.querySelector(CONTROL)) done();
    else observer.observe(document, { childList: true, subtree: true });
  });
  return firstInput;
}

/** The window's `load`: the first page's own scripts, styles and images are in. */
function pageLoaded(): Promise<void> {
  if (document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}

/** Runs `task` at the browser's next idle moment (a short timer where there are none); the cancel. */
function whenBrowserIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = window.setTimeout(task, 200);
  return () => window.clearTimeout(timer);
}

/**
 * Runs `task` once the first page's first control is usable, the page has loaded and the browser
 * is idle, so that later use needs no network. Returns the cancel function (for an effect's cleanup).
 */
export function whenPageIdle(task: () => void): () => void {
  let cancelled = false;
  let cancelIdle = () => undefined as void;
  void Promise.all([firstInputUsable(), pageLoaded()]).then(() => {
    if (!cancelled) cancelIdle = whenBrowserIdle(task);
  });
  return () => {
    cancelled = true;
    cancelIdle();
  };
}

/** Fetches an on-demand chunk once the page is idle after its first control is usable. */
export function preloadWhenIdle(load: () => Promise<unknown>): () => void {
  // A failed download is tried again where the chunk is needed.
  return whenPageIdle(() => void load().catch(() => undefined));
}
