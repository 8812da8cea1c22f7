/**
 * Unsaved answers are flushed before a logout (SECURITY.md REQ-R-5): the application registers how to
 * save them, and the logout paths wait for it.
 */
let flusher: (() => Promise<unknown>) | null = null;

export function registerFlush(flush: (() => Promise<unknown>) | null): void {
  flusher = flush;
}

/** Saves what is unsaved; a failure does not block the logout. */
export async function flushUnsaved(): Promise<void> {
  try {
    await flusher?.();
  } catch {
    // The session may already be gone; nothing more can be saved.
  }
}
