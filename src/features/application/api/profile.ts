import { queryOptions, useQuery } from '@tanstack/react-query';
import { PROFILE_PATH, profileResponse } from '#contract';
import { apiRequest } from '#src/api/client.ts';

export const PROFILE_KEY = ['profile'] as const;

/** GET /api/profile (SPEC 3.2). */
export const profileQuery = queryOptions({
  queryKey: PROFILE_KEY,
  queryFn: () => apiRequest('GET', PROFILE_PATH, profileResponse),
});

export function useProfile(enabled: boolean) {
  return useQuery({ ...profileQuery, enabled });
}
