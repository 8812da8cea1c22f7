/**
 * What the log may say about a request or an error (issue 15.6, SECURITY.md: no personal data in
 * logs). Never a value the client sent: a request is its method, route pattern, masked query and
 * address; an error is its type, code and code location, never its message (a database error's
 * message holds the query's parameters, the whole answers map included).
 */
import type { FastifyRequest } from 'fastify';

/** Masks query-string values: URLs may carry tokens (SECURITY.md, compensating controls). */
export function maskUrl(url: string): string {
  const index = url.indexOf('?');
  if (index < 0) return url;
  const query = url
    .slice(index + 1)
    .split('&')
    .map((pair) => `${pair.split('=')[0]}=***`)
    .join('&');
  return `${url.slice(0, index)}?${query}`;
}

/** The route pattern (`/api/document-answer/:question_key`), not the path the client typed. */
export function requestLogFields(request: FastifyRequest) {
  const query = request.url.indexOf('?');
  const route = request.routeOptions.url ?? '(no route)';
  return {
    method: request.method,
    url: maskUrl(query < 0 ? route : `${route}${request.url.slice(query)}`),
    remoteAddress: request.ip,
  };
}

interface ErrorFields {
  type: string;
  errorCode?: string;
  /** Stack frames only (the first lines of a stack repeat the message). */
  stack?: string;
  cause?: ErrorFields;
}

/** An error by type, code and where it was thrown; its message never. */
export function errorFields(error: unknown, depth = 0): ErrorFields {
  if (!(error instanceof Error)) return { type: typeof error };
  const code = (error as { code?: unknown }).code;
  const frames = error.stack
    ?.split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
  return {
    type: error.constructor.name || error.name,
    ...(typeof code === 'string' || typeof code === 'number' ? { errorCode: String(code) } : {}),
    ...(frames ? { stack: frames } : {}),
    ...(error.cause !== undefined && depth < 2
      ? { cause: errorFields(error.cause, depth + 1) }
      : {}),
  };
}
