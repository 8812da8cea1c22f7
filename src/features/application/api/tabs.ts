import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { TABS_PATH, tabsResponse, ignoredResponse } from '#contract';
import { apiRequest } from '#src/api/client.ts';

/** GET /api/tabs: the chosen tab per group, with defaults (SPEC 7.2). */
export const tabsQuery = queryOptions({
  queryKey: ['tabs'] as const,
  queryFn: () => apiRequest('GET', TABS_PATH, tabsResponse),
});

/** PUT /api/tabs { tab_id, chosen_tab } (SPEC 4.6). */
export const putTabMutation = (queryClient: QueryClient) => ({
  mutationFn: ({ tabId, chosenTab }: { tabId: string; chosenTab: string }) =>
    apiRequest('PUT', TABS_PATH, ignoredResponse, { tab_id: tabId, chosen_tab: chosenTab }),
  onSuccess: (_data: unknown, { tabId, chosenTab }: { tabId: string; chosenTab: string }) =>
    queryClient.setQueryData(tabsQuery.queryKey, (old) => ({ ...old, [tabId]: chosenTab })),
});
