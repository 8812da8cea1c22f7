/**
 * SPEC 7.1: no retries (the web-status post retries twice, set on that mutation), cached indefinitely,
 * never stale, no refetch on focus or mount; read errors go to the error boundary.
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { UnauthorizedError } from './client';

export function createQueryClient(onUnauthorized: () => void): QueryClient {
  const handle = (error: unknown) => {
    if (error instanceof UnauthorizedError) onUnauthorized();
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: handle }),
    mutationCache: new MutationCache({ onError: handle }),
    defaultOptions: {
      queries: {
        retry: false,
        staleTime: Infinity,
        gcTime: Infinity,
        refetchOnWindowFocus: false,
        refetchOnMount: false,
        refetchOnReconnect: false,
        throwOnError: (error) => !(error instanceof UnauthorizedError),
      },
      mutations: { retry: false },
    },
  });
}
