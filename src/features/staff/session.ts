/**
 * The console's own QueryClient and the signed-in staff member. A 401 from any call (the session
 * idled out, was ended elsewhere, or the account was disabled) asks `/me` again, which brings the
 * sign-in back in place: the URL stays, so signing in again returns to the same view. A staff 401
 * is never the applicant's logout.
 */
import { MutationCache, QueryCache, QueryClient, useQuery } from '@tanstack/react-query';
import { staffMeResponse, type StaffMe } from '#contract/staff.ts';
import { staffCall, StaffApiError } from './api';

export const meKey = ['staff', 'me'] as const;

/** The signed-in staff member, or null when there is no session (the sign-in shows). */
export const meQuery = {
  queryKey: meKey,
  queryFn: (): Promise<StaffMe | null> =>
    staffCall(staffMeResponse, '/me').catch((error: unknown) => {
      if (error instanceof StaffApiError && error.status === 401) return null;
      throw error;
    }),
};

export function createStaffQueryClient(): QueryClient {
  const signedOut = (error: unknown, key?: readonly unknown[]) => {
    if (error instanceof StaffApiError && error.status === 401 && key?.[1] !== 'me')
      void client.invalidateQueries({ queryKey: meKey });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => signedOut(error, query.queryKey) }),
    mutationCache: new MutationCache({ onError: (error) => signedOut(error) }),
    defaultOptions: { queries: { retry: false, staleTime: 10_000 } },
  });
  return client;
}

export function useMe() {
  return useQuery(meQuery);
}
