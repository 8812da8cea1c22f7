import { GENERIC_ERROR_MESSAGE, type PresignedUrlResponse } from '#contract';
import { ServerError, UnauthorizedError } from '#src/api/client.ts';

/**
 * POST the presigned url (SPEC 4.4 step 2): a multipart form with every presigned field, then the
 * file. Sent without reading a cross-origin answer (an object store's reply is opaque); when the url
 * is this server's own endpoint the reply is readable, and a refusal's message is reported.
 */
export async function uploadFileRequest(
  presigned: PresignedUrlResponse,
  file: File,
): Promise<void> {
  const form = new FormData();
  for (const [name, value] of Object.entries(presigned.fields)) form.append(name, value);
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(presigned.url, {
      method: 'POST',
      body: form,
      mode: 'no-cors',
      credentials: 'same-origin',
    });
  } catch {
    throw new ServerError(GENERIC_ERROR_MESSAGE, 0);
  }
  if (response.type === 'opaque' || response.ok) return;
  if (response.status === 401) throw new UnauthorizedError();
  let message = GENERIC_ERROR_MESSAGE;
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string' && body.message !== '') message = body.message;
  } catch {
    // Not JSON: the generic message (SPEC 7.1).
  }
  throw new ServerError(message, response.status);
}
