/**
 * How a route describes itself for the OpenAPI document (D140, D205): once, where it is registered,
 * from the zod schemas it parses with. The description rides in the route's `config`, where Fastify
 * validates nothing, so requests are checked and refused exactly as before; the composition root
 * collects it (`onRoute`) and openapi/document.ts builds the document from what was collected.
 */
import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import type { $ZodType } from 'zod/v4/core';

export type Security = 'session' | 'staffSession' | 'staffKey' | 'metricsToken' | 'serviceToken';
export type Tag =
  'accounts' | 'application' | 'documents' | 'lookup' | 'service' | 'staff' | 'operations';
/** A response's body: a schema's JSON, or a file. */
export type Content = $ZodType | 'pdf' | 'csv' | 'zip' | 'prometheus';

export interface RouteDescription {
  readonly tag: Tag;
  readonly summary: string;
  readonly security?: Security;
  /** The schemas the route parses its path parameters, query and body with. */
  readonly params?: $ZodType;
  readonly query?: $ZodType;
  /** A JSON body, or a multipart form (the presigned upload). */
  readonly body?: $ZodType | 'multipart';
  /** The success status (default 200). */
  readonly status?: number;
  readonly response?: Content;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    openapi?: RouteDescription;
  }
}

/** A route's options with its description added (its other options, such as limits, kept). */
export function described<Options extends RouteShorthandOptions>(
  description: RouteDescription,
  options?: Options,
): Options & { config: { openapi: RouteDescription } } {
  return {
    ...(options as Options),
    config: { ...options?.config, openapi: description },
  };
}

/** A registered route as the composition root collects it. */
export interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
  readonly openapi?: RouteDescription;
}

/** Every route registered on `app` from now on, with its description, as it is registered. */
export function collectRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      routes.push({ method, url: route.url, openapi: route.config?.openapi });
  });
  return routes;
}
