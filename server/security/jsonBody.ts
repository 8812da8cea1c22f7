/**
 * The only body parser of the JSON routes (D72): each route's limits, checked while the bytes
 * arrive (BoundedJsonReader). Content types other than JSON are refused (no text/plain: a cross-site
 * form could send it without a preflight); multipart is added by the upload route alone.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { serverMessages } from '../../contract';
import { HttpError } from '../errors';
import { BoundedJsonReader, JsonRefused, type JsonLimits } from './json';

/** A route's limits; `members` may depend on the request (the tenant's data model). */
export interface RouteJsonLimits {
  readonly depth?: number;
  readonly members?: number | ((request: FastifyRequest) => number);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** JSON body limits of the route, over DEFAULT_JSON_LIMITS (bytes: the route's bodyLimit). */
    json?: RouteJsonLimits;
  }
}

/** Account calls and small state changes: a flat object of a few fields. */
export const DEFAULT_JSON_LIMITS = { bytes: 16 * 1024, depth: 2, members: 64 } as const;

/** The routes that carry the whole application's answers (SECURITY.md 7.23: 1 MiB). */
export const ANSWERS_BODY_BYTES = 1024 * 1024;

function limitsOf(request: FastifyRequest): JsonLimits {
  const route = request.routeOptions.config.json ?? {};
  const members = route.members ?? DEFAULT_JSON_LIMITS.members;
  return {
    bytes: request.routeOptions.bodyLimit ?? DEFAULT_JSON_LIMITS.bytes,
    depth: route.depth ?? DEFAULT_JSON_LIMITS.depth,
    members: typeof members === 'function' ? members(request) : members,
  };
}

function httpError(error: unknown): HttpError {
  return error instanceof JsonRefused && error.reason === 'tooLarge'
    ? new HttpError(413, serverMessages.tooLarge)
    : new HttpError(400, serverMessages.badRequest);
}

export function registerJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', (request, payload, done) => {
    const limits = limitsOf(request);
    if (Number(request.headers['content-length']) > limits.bytes)
      return done(httpError(new JsonRefused('tooLarge')), undefined);
    const reader = new BoundedJsonReader(limits);
    const stop = (error: unknown) => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', stop);
      done(httpError(error), undefined);
    };
    const onData = (chunk: Buffer | string) => {
      try {
        reader.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      } catch (error) {
        stop(error);
      }
    };
    const onEnd = () => {
      payload.removeListener('data', onData);
      payload.removeListener('error', stop);
      let value: unknown;
      try {
        value = reader.end();
      } catch (error) {
        return done(httpError(error), undefined);
      }
      done(null, value);
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', stop);
    payload.resume();
  });
}
