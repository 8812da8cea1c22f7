import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TABS_PATH, tabsResponse, ignoredResponse } from '../../../../contract';
import { apiRequest } from '../../../api/client';

export const tabsQuery = queryOptions({
  queryKey: ['tabs'] as const,
  queryFn: () => apiRequest('GET', TABS_PATH, tabsResponse),
});

/** GET /api/tabs: the chosen tab per group, with defaults (SPEC 7.2). */
export function useTabs(enabled: boolean) {
  return useQuery({ ...tabsQuery, enabled });
}

/** PUT /api/tabs { tab_id, chosen_tab } (SPEC 4.6). */
export function usePutTab() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tabId, chosenTab }: { tabId: string; chosenTab: string }) =>
      apiRequest('PUT', TABS_PATH, ignoredResponse, { tab_id: tabId, chosen_tab: chosenTab }),
    onSuccess: (_data, { tabId, chosenTab }) =>
      queryClient.setQueryData(tabsQuery.queryKey, (old) => ({ ...old, [tabId]: chosenTab })),
  });
}
