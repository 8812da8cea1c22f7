import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../api/client';

/** POST /api/submit (SPEC 4.1). */
export function submitRequest() {
  return apiRequest('POST', '/api/submit', z.object({ message: z.string() }));
}

export function useSubmit() {
  return useMutation({ mutationFn: submitRequest });
}
