/**
 * D84: a logged-in page starts the calls its form waits for before the app's JavaScript
 * arrives, and the app's first GET of each takes that response over instead of asking again.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { FIRST_LOAD_PATHS, INDICATOR_COOKIE, PROFILE_PATH, TABS_PATH } from '../../contract';
import { JSON_REQUEST_HEADERS } from '../../src/api/headers';
import { earlyRequestsScript, takeEarlyResponse } from '../../src/boot/earlyRequests';

/** Runs the inline script as the page would, with the given cookies; returns what it left. */
function runPage(cookie: string, now = 100) {
  const window: Record<string, unknown> = {};
  const fetch = vi.fn(() => Promise.resolve(new Response('{}')));
  runInNewContext(earlyRequestsScript(), {
    window,
    document: { cookie },
    fetch,
    performance: { now: () => now },
  });
  return { window, fetch };
}

describe('the early requests of a logged-in page (D84)', () => {
  it('start only for a visitor the indicator cookie says is logged in', () => {
    expect(runPage('').fetch).not.toHaveBeenCalled();
    expect(runPage(`x=1; ${INDICATOR_COOKIE}=0`).fetch).not.toHaveBeenCalled();
    expect(runPage(`x${INDICATOR_COOKIE}=1`).fetch).not.toHaveBeenCalled();
    const { fetch } = runPage(`theme=dark; ${INDICATOR_COOKIE}=1; other=2`);
    expect(fetch.mock.calls).toEqual(
      FIRST_LOAD_PATHS.map((path) => [
        path,
        { credentials: 'same-origin', headers: JSON_REQUEST_HEADERS },
      ]),
    );
  });

  it('hand each response to the first GET of its call, once', async () => {
    const { window } = runPage(`${INDICATOR_COOKIE}=1`, 100);
    expect(takeEarlyResponse('/api/other', window, 200)).toBeUndefined();
    expect(await takeEarlyResponse(PROFILE_PATH, window, 200)).toBeInstanceOf(Response);
    expect(takeEarlyResponse(PROFILE_PATH, window, 300)).toBeUndefined();
    expect(await takeEarlyResponse(TABS_PATH, window, 300)).toBeInstanceOf(Response);
  });

  it('are not used once too old to trust', () => {
    const { window } = runPage(`${INDICATOR_COOKIE}=1`, 0);
    expect(takeEarlyResponse(PROFILE_PATH, window, 60_000)).toBeUndefined();
  });
});
