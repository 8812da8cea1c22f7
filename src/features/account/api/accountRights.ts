/**
 * The applicant's rights over their data (D152): "Delete my account" (`DELETE /api/account` with the
 * password typed again) and "Download my data" (`GET /api/account/export`, a ZIP).
 */
import { useMutation } from '@tanstack/react-query';
import { deleteAccountResponse, GENERIC_ERROR_MESSAGE } from '../../../../contract';
import { apiRequest, ServerError, UnauthorizedError } from '../../../api/client';
import { saveResponse } from '../../../api/download';

export const ACCOUNT_EXPORT_PATH = '/api/account/export';

export function useDeleteAccount() {
  return useMutation({
    mutationFn: (password: string) =>
      apiRequest('DELETE', '/api/account', deleteAccountResponse, { password }),
  });
}

/** "Download my data"; a 401 goes to the central handler like every call's. */
export function useDownloadAccountData() {
  return useMutation({ mutationFn: downloadAccountData });
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
