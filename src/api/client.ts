/**
 * The one API client (SPEC 7.1): JSON in and out; a response that is not JSON is a server error with
 * the generic message; a non-OK response's `message` becomes the error text; 401 is an unauthorized
 * error. Every response is parsed with its contract schema, never cast.
 */
import { GENERIC_ERROR_MESSAGE } from '../../contract';
import { takeEarlyResponse } from '../boot/earlyRequests';
import { JSON_REQUEST_HEADERS } from './headers';

export class ServerError extends Error {
  override readonly name = 'ServerError';
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly fieldErrors?: Record<string, string[]>,
    /** The whole error body, for calls whose errors carry more (a 409 conflict's values). */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** A 401: the session is gone. Handled once, centrally (cache cleared, back to /login). */
export class UnauthorizedError extends Error {
  override readonly name = 'UnauthorizedError';
  readonly status = 401;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ServerError(GENERIC_ERROR_MESSAGE, response.status);
  }
}

/** What a response is checked with: any zod schema (classic or mini) fits. */
export interface ResponseSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

export interface RequestOptions {
  readonly headers?: Record<string, string>;
  /** Lets the request finish after the page is gone (the autosave flush on `pagehide`). */
  readonly keepalive?: boolean;
}

export async function apiRequest<T>(
  method: Method,
  path: string,
  schema: ResponseSchema<T>,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  let response: Response;
  try {
    // The page may have started this GET before the app's JavaScript arrived (src/boot).
    const early = method === 'GET' ? takeEarlyResponse(path) : undefined;
    response = await (early ??
      fetch(path, {
        method,
        credentials: 'same-origin',
        headers: { ...JSON_REQUEST_HEADERS, ...options.headers },
        body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
        keepalive: options.keepalive,
      }));
  } catch {
    throw new ServerError(GENERIC_ERROR_MESSAGE, 0);
  }
  if (response.status === 401) throw new UnauthorizedError();
  const data = await readJson(response);
  if (!response.ok) {
    const body = (typeof data === 'object' && data !== null ? data : {}) as {
      message?: unknown;
      code?: unknown;
      errors?: unknown;
    };
    const message =
      typeof body.message === 'string' && body.message !== ''
        ? body.message
        : GENERIC_ERROR_MESSAGE;
    throw new ServerError(
      message,
      response.status,
      typeof body.code === 'string' ? body.code : undefined,
      typeof body.errors === 'object' && body.errors !== null
        ? (body.errors as Record<string, string[]>)
        : undefined,
      body as Record<string, unknown>,
    );
  }
  const parsed = schema.safeParse(data ?? {});
  if (!parsed.success) throw new ServerError(GENERIC_ERROR_MESSAGE, response.status);
  return parsed.data;
}
