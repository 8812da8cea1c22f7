/**
 * Toasts (SPEC 2.7, 9): success and error, 5 s by default, each with a visible close button. The
 * provider sits above the router so a toast outlives the navigation that follows it.
 */
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { ReactNode } from 'react';
import { PlainToastLayer } from './PlainToastLayer';
import type { ActiveToast, ToastOptions } from './toastModel';
import { preloadWhenIdle } from './preloadWhenIdle';
import { useToastsBelowHeader } from './toastOffset';

/** When the Radix layer cannot be fetched (offline), the plain layer still shows every toast. */
const loadToastLayer = () => import('./ToastLayer').catch(() => ({ default: PlainToastLayer }));
const ToastLayer = lazy(loadToastLayer);

export { DEFAULT_TOAST_MS, ERROR_BOUNDARY_TOAST_MS } from './toastModel';
export type { ToastOptions, ToastSeverity } from './toastModel';

export interface ToastApi {
  show(toast: ToastOptions): void;
}

const ToastContext = createContext<ToastApi | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<readonly ActiveToast[]>([]);
  const nextId = useRef(0);
  const [layerMounted, setLayerMounted] = useState(false);

  const show = useCallback((toast: ToastOptions) => {
    nextId.current += 1;
    setLayerMounted(true);
    const id = nextId.current;
    setToasts((list) => [...list, { ...toast, id }]);
  }, []);

  const closed = useCallback((toast: ActiveToast) => {
    setToasts((list) => list.filter((item) => item.id !== toast.id));
    toast.onClose?.();
  }, []);

  const api = useMemo<ToastApi>(() => ({ show }), [show]);
  useToastsBelowHeader(toasts.length > 0);

  // The Radix toast layer is not needed to draw the first page (docs/decisions/ D29): it is fetched
  // and mounted once the browser is idle, or at the first toast if that comes sooner.
  useEffect(
    () =>
      preloadWhenIdle(async () => {
        await loadToastLayer();
        setLayerMounted(true);
      }),
    [],
  );

  return (
    <ToastContext.Provider value={api}>
      {children}
      {layerMounted ? (
        <Suspense fallback={null}>
          <ToastLayer toasts={toasts} onClosed={closed} />
        </Suspense>
      ) : null}
    </ToastContext.Provider>
  );
}

/** The toast API; throws a named error outside ToastProvider. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast must be used inside <ToastProvider>.');
  return api;
}
