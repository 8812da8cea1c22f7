/**
 * Fetches an on-demand chunk once the browser is idle after the first page is drawn, so that later
 * use needs no network. Returns the cancel function (for an effect's cleanup).
 */
export function preloadWhenIdle(load: () => Promise<unknown>): () => void {
  const run = () => void load();
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(run, { timeout: 5_000 });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = window.setTimeout(run, 2_000);
  return () => window.clearTimeout(timer);
}
