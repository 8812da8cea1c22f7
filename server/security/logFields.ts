/**
 * What the log may say about a request or an error (D75, SECURITY.md: no personal data in
 * logs). Never a value the client sent: a request is its method, route pattern, masked query and
 * address; an error is its type, code and code location, never its message (a database error's
 * message holds the query's parameters, the whole answers map included).
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { serverMessages } from '../../contract';

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

/**
 * Malformed HTTP (bad header bytes, a header over the limit): Fastify's default handler logs the
 * error with its `rawPacket`, the request's own bytes. The same answers, logged by type and code.
 */
export function clientErrorHandler(
  this: { log: { trace: (fields: object, message: string) => void } },
  error: Error & { code?: string; rawPacket?: unknown },
  socket: Duplex,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 408
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? 431
        : 400;
  this.log.trace({ err: errorFields(error) }, 'client error');
  // The request's own bytes are read only to answer a HEAD without a body.
  const head =
    Buffer.isBuffer(error.rawPacket) &&
    error.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
  const body = head
    ? ''
    : JSON.stringify({
        message: status === 431 ? serverMessages.tooLarge : serverMessages.badRequest,
      });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy();
}
