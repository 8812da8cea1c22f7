/**
 * The OpenAPI description (D140): valid OpenAPI 3.1 by an outside validator, served the same every
 * time without a session, and in step with the routes Fastify answers, both ways.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, OPENAPI_PATH } from '../../server/openapi/document';
import { startServer, type TestServer } from './harness';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;

describe('the OpenAPI description', () => {
  let server: TestServer;
  beforeAll(async () => {
    // With METRICS_TOKEN set, so that /metrics is among the routes.
    server = await startServer({
      env: { METRICS_TOKEN: 'metrics-token-of-thirty-two-characters-at-least' },
    });
  });
  afterAll(async () => server?.close());

  it('is valid OpenAPI 3.1 to @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(buildOpenApiDocument(server.built.routes));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator does refuse a broken description: a parameter that says not where it goes.
    const broken = buildOpenApiDocument(server.built.routes) as { paths: Record<string, Record<string, any>> };
    delete broken.paths['/api/pdf/document-answer/{question_key}']?.get.parameters[0].in;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('is served at /api/openapi.json without a session, the same bytes every time', async () => {
    const [first, second] = await Promise.all([
      server.client().get(OPENAPI_PATH),
      server.client().get(OPENAPI_PATH),
    ]);
    expect(first?.status).toBe(200);
    expect(first?.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(first?.text).toBe(second?.text);
        expect(first?.text).toBe(JSON.stringify(buildOpenApiDocument(server.built.routes)));
  });

  it('describes every route Fastify registers, and nothing it does not', () => {
    const registered = new Set(
      server.built.routes
        // HEAD answers each GET on its own (Fastify's exposeHeadRoutes).
        .filter((route) => route.method !== 'HEAD')
        .map(
          (route) =>
            `${route.method.toLowerCase()} ${route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/(.)\/$/, '$1')}`,
        ),
    );
    const paths = buildOpenApiDocument(server.built.routes).paths as Record<string, Record<string, unknown>>;
    const described = new Set(
      Object.entries(paths).flatMap(([path, item]) =>
        METHODS.filter((method) => method in item).map((method) => `${method} ${path}`),
      ),
    );
    expect([...registered].filter((route) => !described.has(route)).sort()).toEqual([]);
    expect([...described].filter((route) => !registered.has(route)).sort()).toEqual([]);
    expect(described.size).toBeGreaterThan(50);
  });

  it('describes a request as the client sends it and the answer as the server sends it', () => {
    const paths = buildOpenApiDocument(server.built.routes).paths as Record<string, Record<string, any>>;
    // SPEC 7.2's two spellings of add-another, before the transform that reads them as one.
    const addAnother =
      paths['/api/add-another']?.put.requestBody.content['application/json'].schema;
    expect(addAnother.anyOf).toHaveLength(2);
    expect(addAnother.anyOf[0].required).toEqual(['button_id', 'num_components']);
    // Path parameters from the contract's schemas.
    const link = paths['/staff/api/applications/{id}/links/{tokenId}']?.delete.parameters;
    expect(link.map((parameter: { name: string }) => parameter.name)).toEqual(['id', 'tokenId']);
    expect(link[0].schema.format).toBe('uuid');
    expect(paths['/api/answer']?.put.security).toEqual([{ session: [] }]);
    expect(paths['/metrics']?.get.security).toEqual([{ metricsToken: [] }]);
  });
});
