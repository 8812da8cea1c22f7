import { queryOptions, useQuery } from '@tanstack/react-query';
import { profileResponse } from '../../../../contract';
import { apiRequest } from '../../../api/client';

export const PROFILE_KEY = ['profile'] as const;

/** GET /api/profile (SPEC 3.2). */
export const profileQuery = queryOptions({
  queryKey: PROFILE_KEY,
  queryFn: () => apiRequest('GET', '/api/profile', profileResponse),
});

export function useProfile(enabled: boolean) {
  return useQuery({ ...profileQuery, enabled });
}
