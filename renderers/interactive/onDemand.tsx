/**
 * Renderers whose code loads when a page first draws them (docs/decisions/ D110), so the first
 * page's JavaScript carries only the kinds it shows. Until the code arrives a placeholder with the
 * same frame stands in, so nothing moves when it does. `preload` starts the download early: the
 * page outlet calls it when the browser is idle, and once loaded the renderer draws at once, with
 * no placeholder, on every later page.
 */
import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import type { Preloadable } from '../registry';

export type OnDemandRenderer<P> = ((props: P) => ReactNode) & Preloadable;

export function onDemand<P extends object>(
  load: () => Promise<ComponentType<P>>,
  Placeholder: ComponentType<P>,
): OnDemandRenderer<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
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
      let current = true;
      preload().then(
        (component) => current && setComponent(() => component),
        () => undefined,
      );
      return () => {
        current = false;
      };
    }, [Component]);
    return Component ? <Component {...props} /> : <Placeholder {...props} />;
  }
  return Object.assign(Renderer, { preload });
}
