import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { ADD_ANOTHER_PATH, addAnotherResponse, ignoredResponse } from '#contract';
import { apiRequest } from '#src/api/client.ts';

/** GET /api/add-another: logged-in users only (SPEC 7.2). */
export const addAnotherQuery = queryOptions({
  queryKey: ['add-another'] as const,
  queryFn: () => apiRequest('GET', ADD_ANOTHER_PATH, addAnotherResponse),
});

/** PUT /api/add-another { button_id, num_components } (SPEC 4.8). */
export const putAddAnotherMutation = (queryClient: QueryClient) => ({
  mutationFn: ({ buttonId, count }: { buttonId: string; count: number }) =>
    apiRequest('PUT', ADD_ANOTHER_PATH, ignoredResponse, {
      button_id: buttonId,
      num_components: count,
    }),
  onSuccess: (_data: unknown, { buttonId, count }: { buttonId: string; count: number }) =>
    queryClient.setQueryData(addAnotherQuery.queryKey, (old) => ({ ...old, [buttonId]: count })),
});
