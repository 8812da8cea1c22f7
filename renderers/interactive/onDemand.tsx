/**
 * Renderers whose code loads when a page first draws them (docs/decisions/ D110), so the first
 * page's JavaScript carries only the kinds it shows. Until the code arrives a placeholder with the
 * same frame stands in, so nothing moves when it does. `preload` starts the download early: the
 * page outlet calls it when the browser is idle, and once loaded the renderer draws at once, with
 * no placeholder, on every later page. A renderer whose placeholder works on its own (the lookup's
 * plain text input) loads only when `preload` is called: by the outlet once the page is idle, or by
 * the placeholder when the applicant reaches for it (D198).
 */
import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import type { Preloadable } from '../registry';

export type OnDemandRenderer<P> = ((props: P) => ReactNode) & Preloadable;

export interface OnDemandOptions {
  /**
   * `drawn` (the default): the code loads as soon as a page draws the renderer, whose placeholder
   * only holds its place. `preloaded`: the placeholder works on its own, and the code loads only
   * when `preload` is called; the drawn renderers then swap their placeholder for it.
   */
  readonly loads?: 'drawn' | 'preloaded';
}

export function onDemand<P extends object>(
  load: () => Promise<ComponentType<P>>,
  Placeholder: ComponentType<P>,
  { loads = 'drawn' }: OnDemandOptions = {},
): OnDemandRenderer<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  /** The drawn renderers still showing their placeholder. */
  const waiting = new Set<(component: ComponentType<P>) => void>();
  const preload = () =>
    (loading ??= load().then(
      (component) => {
        loaded = component;
        for (const swap of [...waiting]) swap(component);
        return component;
      },
      (error: unknown) => {
        // A failed download (offline) is tried again by the next render rather than kept.
        loading = undefined;
        throw error;
      },
    ));
  // A state update rather than Suspense: nothing outside this renderer waits or re-renders.
  function Renderer(props: P) {
    const [Component, setComponent] = useState(() => loaded);
    useEffect(() => {
      if (Component) return;
      const swap = (component: ComponentType<P>) => setComponent(() => component);
      if (loaded) {
        swap(loaded);
        return;
      }
      waiting.add(swap);
      if (loads === 'drawn') preload().catch(() => undefined);
      return () => {
        waiting.delete(swap);
      };
    }, [Component]);
    return Component ? <Component {...props} /> : <Placeholder {...props} />;
  }
  return Object.assign(Renderer, { preload });
}
