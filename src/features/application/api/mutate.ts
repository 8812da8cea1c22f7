/**
 * Runs a mutation outside React, through the QueryClient's mutation cache, so a 401 still reaches
 * the central handler (SPEC 2.2) as it does for the hooks.
 */
import { MutationObserver, type MutationOptions, type QueryClient } from '@tanstack/react-query';

export function mutate<TData, TVariables>(
  queryClient: QueryClient,
  options: MutationOptions<TData, Error, TVariables>,
  variables: TVariables,
): Promise<TData> {
  return new MutationObserver(queryClient, options).mutate(variables);
}
