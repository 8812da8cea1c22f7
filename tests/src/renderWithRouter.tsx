/**
 * Renders a screen inside a real TanStack Router (memory history) with the app's QueryClient
 * policy and the toast provider. The other account paths and /about show their path and the
 * navigation state they received, so a test can see where a card went and what it carried.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
  useRouterState,
} from '@tanstack/react-router';
import type { HistoryState, RouteComponent } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { createQueryClient } from '../../src/api/queryClient';
import { ToastProvider } from '../../src/chrome/toast';

/**
 * What jsdom lacks and Radix uses: pointer capture (toast swipe), ResizeObserver (popover sizing),
 * scrollIntoView; and quiet stand-ins for what jsdom only logs as "not implemented" (the router's
 * scrollTo, axe's canvas probe).
 */
export function installDomShims() {
  const proto = Element.prototype as unknown as Record<string, unknown>;
  proto.hasPointerCapture ??= () => false;
  proto.setPointerCapture ??= () => {};
  proto.releasePointerCapture ??= () => {};
  proto.scrollIntoView ??= () => {};
  window.scrollTo = () => {};
  HTMLCanvasElement.prototype.getContext = (() =>
    null) as typeof HTMLCanvasElement.prototype.getContext;
  if (!('ResizeObserver' in globalThis)) {
    class ResizeObserverShim {
      observe() {}
      unobserve() {}
      disconnect() {}
    }
    vi.stubGlobal('ResizeObserver', ResizeObserverShim);
  }
}

export const TEST_PATHS = ['/signup', '/confirm', '/login', '/forgot', '/reset', '/about'] as const;
export type TestPath = (typeof TEST_PATHS)[number];

/** Navigation state without the router's own bookkeeping keys. */
export function userState(state: HistoryState): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(state).filter(([key]) => key !== 'key' && !key.startsWith('__')),
  );
}

function Probe({ path }: { path: string }) {
  const state = useRouterState({ select: (s) => s.location.state });
  return (
    <>
      <h1>{path}</h1>
      <pre data-testid="navigation-state">{JSON.stringify(userState(state))}</pre>
    </>
  );
}

export interface RenderWithRouterOptions {
  /** Where the screen under test lives. */
  path: TestPath;
  component: RouteComponent;
  /** The query string, with its "?". */
  search?: string;
  /** The navigation state the screen starts with. */
  state?: HistoryState;
}

export function renderWithRouter({ path, component, search = '', state }: RenderWithRouterOptions) {
  const rootRoute = createRootRoute({
    component: () => (
      <main>
        <Outlet />
      </main>
    ),
  });
  const routes = TEST_PATHS.map((routePath) =>
    createRoute({
      getParentRoute: () => rootRoute,
      path: routePath,
      component: routePath === path ? component : () => <Probe path={routePath} />,
    }),
  );
  const history = createMemoryHistory({ initialEntries: [`${path}${search}`] });
  if (state) history.replace(`${path}${search}`, state);
  const router = createRouter({ routeTree: rootRoute.addChildren(routes), history });
  const onUnauthorized = vi.fn();
  const queryClient = createQueryClient(onUnauthorized);
  const view = render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { ...view, router, history, queryClient, onUnauthorized };
}

export interface FetchCall {
  path: string;
  method: string;
  body: unknown;
}

export interface MockReply {
  status?: number;
  body: unknown;
}

/**
 * Stubs `fetch` with JSON answers from `reply` (by path) and records every call. A reply can be a
 * promise, to hold a call pending.
 */
export function mockFetch(reply: (call: FetchCall) => MockReply | Promise<MockReply>) {
  const calls: FetchCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: FetchCall = {
      path: String(input),
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    const { status = 200, body } = await reply(call);
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}
