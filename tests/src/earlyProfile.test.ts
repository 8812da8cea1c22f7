/**
 * Issue 14: the page starts the profile request before the app's JavaScript arrives, and the app's
 * first profile GET takes that response over instead of asking again.
 */
import { describe, expect, it, vi } from 'vitest';
import { INDICATOR_COOKIE, PROFILE_PATH } from '../../contract';
import { JSON_REQUEST_HEADERS } from '../../src/api/headers';
import { earlyProfileScript, takeEarlyResponse } from '../../src/boot/earlyProfile';

/** Runs the inline script as the page would, with the given cookies; returns what it left. */
function runPage(cookie: string, now = 100) {
  const window: Record<string, unknown> = {};
  const fetch = vi.fn(() => Promise.resolve(new Response('{}')));
  const run = new Function('window', 'document', 'fetch', 'performance', earlyProfileScript());
  run(window, { cookie }, fetch, { now: () => now });
  return { window, fetch };
}

describe('the early profile request (issue 14)', () => {
  it('starts only for a visitor the indicator cookie says is logged in', () => {
    expect(runPage('').fetch).not.toHaveBeenCalled();
    expect(runPage(`x=1; ${INDICATOR_COOKIE}=0`).fetch).not.toHaveBeenCalled();
    expect(runPage(`x${INDICATOR_COOKIE}=1`).fetch).not.toHaveBeenCalled();
    const { fetch } = runPage(`theme=dark; ${INDICATOR_COOKIE}=1; other=2`);
    expect(fetch).toHaveBeenCalledWith(PROFILE_PATH, {
      credentials: 'same-origin',
      headers: JSON_REQUEST_HEADERS,
    });
  });

  it('hands its response to the first GET of the profile, once', async () => {
    const { window } = runPage(`${INDICATOR_COOKIE}=1`, 100);
    expect(takeEarlyResponse('/api/other', window, 200)).toBeUndefined();
    const early = takeEarlyResponse(PROFILE_PATH, window, 200);
    expect(await early).toBeInstanceOf(Response);
    expect(takeEarlyResponse(PROFILE_PATH, window, 300)).toBeUndefined();
  });

  it('is not used once it is too old to trust', () => {
    const { window } = runPage(`${INDICATOR_COOKIE}=1`, 0);
    expect(takeEarlyResponse(PROFILE_PATH, window, 60_000)).toBeUndefined();
  });
});
