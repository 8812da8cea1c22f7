/** The console's calls: JSON in and out, every answer parsed with its `contract/staff` schema. */
import { GENERIC_ERROR_MESSAGE } from '#contract';
import { saveResponse } from '../../api/download';

export class StaffApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface Schema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

export async function staffCall<T>(
  schema: Schema<T>,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  const response = await fetch(`/staff/api${path}`, {
    method: init.method ?? 'GET',
    headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: 'same-origin',
  });
  const data: unknown = await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = (data as { message?: unknown }).message;
    throw new StaffApiError(
      response.status,
      typeof message === 'string' ? message : GENERIC_ERROR_MESSAGE,
    );
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new StaffApiError(500, GENERIC_ERROR_MESSAGE);
  return parsed.data;
}

/** Downloads a file the console links to (the PDF answers 202 with a message while it is prepared). */
export async function download(path: string, fileName: string): Promise<string | null> {
  const response = await fetch(`/staff/api${path}`, { credentials: 'same-origin' });
  if (response.status !== 200) {
    const data = (await response.json().catch(() => ({}))) as { message?: unknown };
    return typeof data.message === 'string' ? data.message : GENERIC_ERROR_MESSAGE;
  }
  // The server names the file (for people: `<Last>-<First>-<reference>.pdf`); `fileName` otherwise.
  await saveResponse(response, fileName);
  return null;
}
