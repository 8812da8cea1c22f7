/**
 * The applicant's rights over their data (D152): "Delete my account" (`DELETE /api/account` with the
 * password typed again) and "Download my data" (`GET /api/account/export`, a ZIP).
 */
import { MutationObserver, useMutation, type QueryClient } from '@tanstack/react-query';
import { deleteAccountResponse, GENERIC_ERROR_MESSAGE } from '#contract';
import { apiRequest, ServerError, UnauthorizedError } from '#src/api/client.ts';
import { saveResponse } from '#src/api/download.ts';
import type { ToastApi } from '#src/chrome/toast.tsx';
import { flushUnsaved } from '#src/session/flush.ts';
import { rightsText } from '../accountText';

export const ACCOUNT_EXPORT_PATH = '/api/account/export';

export function useDeleteAccount() {
  return useMutation({
    mutationFn: (password: string) =>
      apiRequest('DELETE', '/api/account', deleteAccountResponse, { password }),
  });
}

/**
 * "Download my data" from the Account menu: what was typed last is saved first; a refusal is a toast
 * in our words, a 401 goes to the central handler (the mutation cache's) like every call's.
 */
export async function downloadMyData(queryClient: QueryClient, toast: ToastApi): Promise<void> {
  await flushUnsaved();
  try {
    await new MutationObserver(queryClient, { mutationFn: downloadAccountData }).mutate();
  } catch (error) {
    if (error instanceof UnauthorizedError) return;
    toast.show({
      title: rightsText.downloadError,
      description: (error as Error).message,
      severity: 'error',
    });
  }
}

/** Fetches the ZIP and hands it to the browser under the server's name for it. */
export async function downloadAccountData(): Promise<void> {
  let response: Response;
  try {
    response = await fetch(ACCOUNT_EXPORT_PATH, { credentials: 'same-origin' });
  } catch {
    throw new ServerError(GENERIC_ERROR_MESSAGE, 0);
  }
  if (response.status === 401) throw new UnauthorizedError();
  if (!response.ok) {
    const data = (await response.json().catch(() => ({}))) as { message?: unknown };
    throw new ServerError(
      typeof data.message === 'string' ? data.message : GENERIC_ERROR_MESSAGE,
      response.status,
    );
  }
  await saveResponse(response, 'account-data.zip');
}
