/** The console's calls: JSON in and out, every answer parsed with its `contract/staff` schema. */
import { GENERIC_ERROR_MESSAGE } from '../../../contract';

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
/** The file name of a Content-Disposition header: its UTF-8 name, else its plain one. */
function nameOf(disposition: string | null): string | null {
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '')?.[1];
  if (utf8) {
    try {
      return decodeURIComponent(utf8);
    } catch {
      // A name that is not percent-encoded UTF-8: the plain one below.
    }
  }
  return /filename="([^"]+)"/i.exec(disposition ?? '')?.[1] ?? null;
}

export async function download(path: string, fileName: string): Promise<string | null> {
  const response = await fetch(`/staff/api${path}`, { credentials: 'same-origin' });
  if (response.status !== 200) {
    const data = (await response.json().catch(() => ({}))) as { message?: unknown };
    return typeof data.message === 'string' ? data.message : GENERIC_ERROR_MESSAGE;
  }
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  // The server names the file (for people: `<Last>-<First>-<reference>.pdf`); `fileName` otherwise.
  anchor.download = nameOf(response.headers.get('content-disposition')) ?? fileName;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return null;
}
