/**
 * The application session without a DOM (node): its actions against a scripted server at the
 * fetch boundary, through the app's own QueryClient, so a 401 takes the path the app's does.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GENERIC_ERROR_MESSAGE, serverMessages, type ProfileResponse } from '../../contract';
import { createQueryClient } from '../../src/api/queryClient';
import { ApplicationSession } from '../../src/features/application/session/ApplicationSession';
import { faultToast } from '../../src/features/application/session/faults';
import type { PagePort } from '../../src/features/application/session/page';
import { miniDefinition } from '../fixtures/miniDefinition';

type Reply = { status: number; body?: unknown } | 'offline';
type Route = (body: unknown) => Reply;

/** The server, one route per `METHOD /path`; every request it saw, in order. */
function scriptedServer(routes: Record<string, Route>) {
  const seen: { route: string; body: unknown }[] = [];
  const fetch = vi.fn(async (path: string, init: RequestInit) => {
    const route = `${init.method} ${path}`;
    const body: unknown = init.body ? JSON.parse(String(init.body)) : undefined;
    seen.push({ route, body });
    const reply = (routes[route] ?? (() => ({ status: 200, body: { message: 'Done' } })))(body);
    if (reply === 'offline') throw new TypeError('Failed to fetch');
    return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), {
      status: reply.status,
    });
  });
  return { fetch, seen, routes: (route: string) => seen.filter((r) => r.route === route) };
}

const valid = { name: 'Ada', start_month: '3', start_year: '2021', agree: true };

function profile(answer: Record<string, unknown>): ProfileResponse {
  return {
    answer,
    document_answer: {},
    username: 'ann@example.com',
    last_page: '/one',
    successful_login: [{ at: '2026-11-01T00:00:00Z' }],
    web_status: [{ web_status: 'started' }],
    version: 1,
  };
}

const page: PagePort = {
  scrollTop: () => undefined,
  onLeave: () => () => {},
  onHidden: () => () => {},
};
const sessions: ApplicationSession[] = [];
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

function start(answer: Record<string, unknown>) {
  const onUnauthorized = vi.fn();
  const navigate = vi.fn(() => Promise.resolve());
  const session = new ApplicationSession(
    {
      definition: miniDefinition,
      loggedIn: true,
      profile: profile(answer),
      savedCounts: {},
      savedTabs: {},
      carried: {},
    },
    { queryClient: createQueryClient(onUnauthorized), navigate, page },
  );
  sessions.push(session);
  session.arrive('/one', { key: 'entry-1' });
  return { session, onUnauthorized, navigate };
}

/** Lets the microtasks and the turn of the event loop run out (an unhandled rejection fires then). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  process.on('unhandledRejection', onRejection);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  await settle();
  process.off('unhandledRejection', onRejection);
  for (const session of sessions.splice(0)) session.stop();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  expect(rejections.splice(0)).toEqual([]);
});

describe('submitting (SPEC 4.1)', () => {
  it('submits valid answers and moves on to the completion page', async () => {
    const server = scriptedServer({});
    vi.stubGlobal('fetch', server.fetch);
    const { session, navigate } = start(valid);
    await session.submit();
    expect(server.routes('POST /api/submit')).toHaveLength(1);
    expect(session.store.state.webStatus).toBe('submitted');
    expect(session.store.state.fault).toBeNull();
    expect(navigate).toHaveBeenLastCalledWith({
      to: '/completion',
      state: { successMessage: serverMessages.submitted },
    });
  });

  it('a 401 on submit reaches the central handler, shows no fault and rejects nothing', async () => {
    const server = scriptedServer({ 'POST /api/submit': () => ({ status: 401 }) });
    vi.stubGlobal('fetch', server.fetch);
    const { session, onUnauthorized, navigate } = start(valid);
    await session.submit();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(session.store.state.fault).toBeNull();
    expect(session.store.state.webStatus).toBe('validating');
    expect(session.store.state.busy).toBe(false);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('a 401 on the validations post reaches the central handler too', async () => {
    const server = scriptedServer({ 'POST /api/validations': () => ({ status: 401 }) });
    vi.stubGlobal('fetch', server.fetch);
    const { session, onUnauthorized } = start({});
    await session.submit();
    expect(server.routes('POST /api/validations')).toHaveLength(1);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(server.routes('POST /api/submit')).toHaveLength(0);
  });

  it("a refused submit shows the server's message and loses nothing", async () => {
    const refusal = 'The application could not be submitted.';
    const server = scriptedServer({
      'POST /api/submit': () => ({ status: 400, body: { message: refusal } }),
    });
    vi.stubGlobal('fetch', server.fetch);
    const { session, navigate } = start(valid);
    session.answers.setAnswers({ name: 'Ada Lovelace' });
    await session.submit();
    const { fault, webStatus, busy } = session.store.state;
    expect(fault).toMatchObject({ message: refusal, unexpected: false });
    expect(webStatus).toBe('validating');
    expect(busy).toBe(false);
    expect(navigate).not.toHaveBeenCalled();
    // The change was saved before the submit, and is still the answer shown.
    expect(server.routes('PUT /api/answer')[0]?.body).toEqual({ name: 'Ada Lovelace' });
    expect(session.answers.getAnswer('name')).toBe('Ada Lovelace');
  });

  it('a submit without a connection shows the generic message and keeps the unsaved answers', async () => {
    const server = scriptedServer({ 'PUT /api/answer': () => 'offline' });
    vi.stubGlobal('fetch', server.fetch);
    const { session } = start(valid);
    session.answers.setAnswers({ name: 'Ada Lovelace' });
    await session.submit();
    expect(session.store.state.fault).toMatchObject({ message: GENERIC_ERROR_MESSAGE });
    expect(session.answers.dirtyKeys()).toContain('name');
    expect(server.routes('POST /api/submit')).toHaveLength(0);
  });

  it('an unexpected error is a fault with the generic message, shown 300 s, reset by closing', async () => {
    const server = scriptedServer({});
    vi.stubGlobal('fetch', server.fetch);
    const { session, navigate } = start(valid);
    navigate.mockImplementationOnce(() => Promise.reject(new TypeError('router broke')));
    // As the button does: nobody awaits the click's promise (afterEach: no unhandled rejection).
    void session.submit();
    await vi.waitFor(() => expect(session.store.state.fault).not.toBeNull());
    const fault = session.store.state.fault;
    expect(fault).toMatchObject({ message: GENERIC_ERROR_MESSAGE, unexpected: true });
    const toast = faultToast(session.store, fault!);
    expect(toast).toMatchObject({ title: 'Error', severity: 'error', duration: 300_000 });
    toast.onClose?.();
    expect(session.store.state.fault).toBeNull();
  });
});

describe('the other actions', () => {
  it('Save with a failing server shows the fault; a later success leaves it to its toast', async () => {
    let up = false;
    const server = scriptedServer({
      'PUT /api/answer': () =>
        up
          ? { status: 200, body: { message: 'Saved', version: 2 } }
          : { status: 503, body: { message: 'Down' } },
    });
    vi.stubGlobal('fetch', server.fetch);
    const { session } = start(valid);
    session.answers.setAnswers({ name: 'Grace' });
    await session.save();
    expect(session.store.state.fault).toMatchObject({ message: 'Down' });
    up = true;
    await session.save();
    expect(session.answers.hasDirty()).toBe(false);
    expect(session.store.state.saveNotice).toMatchObject({ path: '/one', message: 'Saved' });
  });

  it('a 401 while moving to the next page goes to the central handler and stays put', async () => {
    const server = scriptedServer({ 'PUT /api/answer': () => ({ status: 401 }) });
    vi.stubGlobal('fetch', server.fetch);
    const { session, onUnauthorized, navigate } = start(valid);
    session.answers.setAnswers({ name: 'Grace' });
    await session.goTo('/two');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(navigate).not.toHaveBeenCalled();
    expect(session.store.state.fault).toBeNull();
  });

  it("an anonymous applicant's failed page change shows the fault and rejects nothing", async () => {
    const navigate = vi.fn(() => Promise.reject(new TypeError('router broke')));
    const session = new ApplicationSession(
      {
        definition: miniDefinition,
        loggedIn: false,
        profile: null,
        savedCounts: {},
        savedTabs: {},
        carried: {},
      },
      { queryClient: createQueryClient(() => undefined), navigate, page },
    );
    sessions.push(session);
    void session.goTo('/two');
    await vi.waitFor(() => expect(session.store.state.fault).not.toBeNull());
    expect(session.store.state.fault).toMatchObject({ message: GENERIC_ERROR_MESSAGE });
  });

  it('a burst of clicks on Submit while the server refuses: every click ends, one fault each', async () => {
    const server = scriptedServer({
      'POST /api/submit': () => ({ status: 400, body: { message: 'No' } }),
    });
    vi.stubGlobal('fetch', server.fetch);
    const { session } = start(valid);
    await Promise.all(Array.from({ length: 8 }, () => session.submit()));
    expect(session.store.state.fault).toMatchObject({ message: 'No', tick: 8 });
    expect(session.store.state.busy).toBe(false);
    expect(server.routes('POST /api/submit')).toHaveLength(8);
  });
});
