/** SPEC 7.2 `GET /service/tmp-pdf?service_token=`: one applicant's data for the service view. */
import { queryOptions } from '@tanstack/react-query';
import { SERVICE_TOKEN_PARAM, serviceDataResponse } from '#contract';
import { apiRequest } from '#src/api/client.ts';

export function fetchServiceData(token: string) {
  const query = new URLSearchParams({ [SERVICE_TOKEN_PARAM]: token });
  return apiRequest('GET', `/service/tmp-pdf?${query.toString()}`, serviceDataResponse);
}

export const serviceDataQuery = (token: string) =>
  queryOptions({
    // The token stays out of the cache key (and so out of any devtools listing).
    queryKey: ['service-data'],
    queryFn: () => fetchServiceData(token),
  });
