/**
 * GET /lookup/find (SPEC 7.2): suggestions for typed text and the detail record of a chosen entry,
 * through TanStack Query (SPEC 7.1: cached, never stale, no retries). Lookup failures are silent
 * (SPEC 8): the combobox shows no suggestions or keeps the typed label.
 */
import { queryOptions, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import {
  LOOKUP_DEBOUNCE,
  LOOKUP_MAX_RESULTS,
  lookupDetail,
  lookupSuggestions,
  type LookupCategoryName,
} from '#contract';
import { lookupText } from '#contract/words.ts';
import type { LookupSource } from '#renderers/react/index.ts';
import { apiRequest } from '#src/api/client.ts';

export const lookupSuggestionsQuery = (category: LookupCategoryName, text: string) =>
  queryOptions({
    queryKey: ['lookup', category, 'text', text] as const,
    queryFn: () =>
      apiRequest(
        'GET',
        `/lookup/find?${new URLSearchParams({ text, category, max_results: String(LOOKUP_MAX_RESULTS) })}`,
        lookupSuggestions,
      ),
  });

export const lookupDetailQuery = (category: LookupCategoryName, id: string) =>
  queryOptions({
    queryKey: ['lookup', category, 'id', id] as const,
    queryFn: () =>
      apiRequest('GET', `/lookup/find?${new URLSearchParams({ id, category })}`, lookupDetail),
  });

export function lookupSource(queryClient: QueryClient): LookupSource {
  return {
    suggestions: (category, text) => queryClient.fetchQuery(lookupSuggestionsQuery(category, text)),
    detail: (category, id) => queryClient.fetchQuery(lookupDetailQuery(category, id)),
    debounce: LOOKUP_DEBOUNCE,
    text: lookupText,
  };
}

/** The lookup source the form's renderers use, bound to the app's query client. */
export function useLookupSource(): LookupSource {
  const queryClient = useQueryClient();
  return useMemo(() => lookupSource(queryClient), [queryClient]);
}
