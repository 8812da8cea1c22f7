// @vitest-environment jsdom
/**
 * SECURITY.md 7.14 (the client side that exists): only a 401 ends the session in the app; a 403 is an
 * ordinary error; a storm of 401s reaches /login once, with the unsaved answers (their replay after
 * the next login is tested in Chromium: tests/e2e/autosave.test.ts, REQ-R-4).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { profileResponse, SESSION_INVALID_MESSAGE } from '../../contract';
import { apiRequest, ServerError, UnauthorizedError } from '../../src/api/client';
import { createQueryClient } from '../../src/api/queryClient';
import { sessionEndedHandler } from '../../src/session/sessionEnded';

afterEach(() => vi.unstubAllGlobals());

const respondWith = (status: number) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify({ message: 'Refused.' }), {
          status,
          headers: { 'content-type': 'application/json' },
        }),
    ),
  );

describe('SECURITY.md 7.14 in the client', () => {
  it('7.14 a 403 (forbidden resource) does not log the user out; a 401 does', async () => {
    const onUnauthorized = vi.fn();
    const client = createQueryClient(onUnauthorized);
    respondWith(403);
    await expect(
      client.fetchQuery({
        queryKey: ['forbidden'],
        queryFn: () => apiRequest('GET', '/api/x', profileResponse),
      }),
    ).rejects.toBeInstanceOf(ServerError);
    await client
      .getMutationCache()
      .build(client, { mutationFn: () => apiRequest('PUT', '/api/x', profileResponse, {}) })
      .execute(undefined)
      .catch(() => undefined);
    expect(onUnauthorized).not.toHaveBeenCalled();

    respondWith(401);
    await expect(
      client.fetchQuery({
        queryKey: ['gone'],
        queryFn: () => apiRequest('GET', '/api/x', profileResponse),
      }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });
});

describe('SECURITY.md 7.14: a storm of 401s', () => {
  it('7.14 ten parallel calls answering 401 → the cache is cleared and /login reached exactly once', async () => {
    let finishNavigation: () => void = () => {};
    const toLogin = vi.fn(() => new Promise<void>((resolve) => (finishNavigation = resolve)));
    const clear = vi.fn();
    const unsaved = { answers: { city: 'Burlington' }, username: 'a@example.com' };
    const client = createQueryClient(
      sessionEndedHandler({ clear, toLogin, unsaved: () => unsaved, justLoggedOut: () => false }),
    );
    respondWith(401);
    const calls = Array.from({ length: 10 }, (_, i) =>
      i % 2
        ? client.fetchQuery({
            queryKey: ['storm', i],
            queryFn: () => apiRequest('GET', `/api/x/${i}`, profileResponse),
          })
        : client
            .getMutationCache()
            .build(client, {
              mutationFn: () => apiRequest('PUT', '/api/answer', profileResponse, {}),
            })
            .execute(undefined),
    );
    const settled = await Promise.allSettled(calls);
    expect(
      settled.every((r) => r.status === 'rejected' && r.reason instanceof UnauthorizedError),
    ).toBe(true);
    expect(toLogin).toHaveBeenCalledTimes(1);
    expect(toLogin).toHaveBeenCalledWith({
      errorMessage: SESSION_INVALID_MESSAGE,
      studentAnswers: unsaved.answers,
      unsavedFor: unsaved.username,
    });
    expect(clear).toHaveBeenCalledTimes(1);

    // Once on /login (a new session later), a new 401 is handled again: no handler stuck.
    finishNavigation();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await client
      .fetchQuery({
        queryKey: ['after'],
        queryFn: () => apiRequest('GET', '/api/y', profileResponse),
      })
      .catch(() => undefined);
    expect(toLogin).toHaveBeenCalledTimes(2);
  });

  it('7.14 401s that arrive just after a deliberate logout leave its message alone', async () => {
    const toLogin = vi.fn(async () => undefined);
    const client = createQueryClient(
      sessionEndedHandler({
        clear: vi.fn(),
        toLogin,
        unsaved: () => null,
        justLoggedOut: () => true,
      }),
    );
    respondWith(401);
    await client
      .fetchQuery({
        queryKey: ['late'],
        queryFn: () => apiRequest('GET', '/api/z', profileResponse),
      })
      .catch(() => undefined);
    expect(toLogin).not.toHaveBeenCalled();
  });
});
