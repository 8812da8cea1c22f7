import { useQuery } from '@tanstack/react-query';
import { tmpAnswersResponse } from '../../../../contract';
import { apiRequest } from '../../../api/client';

/** GET /public/tmp?token= (SPEC 7.2): an anonymous visitor's temporary answers. */
export function useTmpAnswers(token: string | undefined) {
  return useQuery({
    queryKey: ['tmp', token] as const,
    queryFn: () =>
      apiRequest('GET', `/public/tmp?token=${encodeURIComponent(token ?? '')}`, tmpAnswersResponse),
    enabled: Boolean(token),
    // A bad or expired link is shown as a message, not as a broken page.
    throwOnError: false,
  });
}
