/**
 * The OpenAPI description (D140, D205): valid OpenAPI 3.1 by an outside validator, served the same
 * every time without a session, and built from the descriptions the routes carry: every route
 * Fastify registers has one, every SPEC 7 call is in it, and a request body it describes is the one
 * the route parses.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, OPENAPI_PATH } from '../../server/openapi/document';
import { startServer, type TestServer } from './harness';

/** The calls of SPEC 7.2, as OpenAPI writes them. */
const SPEC_7_CALLS = [
  'get /api/profile',
  'post /api/web-status',
  'put /api/last-page',
  'put /api/answer',
  'post /api/validations',
  'post /api/submit',
  'get /api/logout',
  'get /api/add-another',
  'put /api/add-another',
  'get /api/tabs',
  'put /api/tabs',
  'post /api/presigned-url',
  'get /api/document-answer',
  'delete /api/document-answer/{question_key}',
  'post /api/pdf/document-answer/{question_key}',
  'get /api/pdf/document-answer/{question_key}',
  'delete /api/pdf/document-answer/{question_key}',
  'get /api/pdf',
  'post /public/signup',
  'post /public/confirm',
  'post /public/resend-confirm',
  'post /public/login',
  'post /public/forgot-password',
  'post /public/reset-password',
  'get /public/tmp',
  'get /service/tmp-pdf',
  'get /lookup/find',
];

type Operation = Record<string, any>;

describe('the OpenAPI description', () => {
  let server: TestServer;
  let paths: Record<string, Record<string, Operation>>;
  beforeAll(async () => {
    // With METRICS_TOKEN set, so that /metrics is among the routes.
    server = await startServer({
      env: { METRICS_TOKEN: 'metrics-token-of-thirty-two-characters-at-least' },
    });
    paths = buildOpenApiDocument(server.built.routes).paths as typeof paths;
  });
  afterAll(async () => server?.close());

  it('is valid OpenAPI 3.1 to @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(buildOpenApiDocument(server.built.routes));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator does refuse a broken description: a parameter that says not where it goes.
    const broken = buildOpenApiDocument(server.built.routes) as { paths: any };
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

  it('has the description of every route Fastify registers, from the route itself', () => {
    // HEAD answers each GET on its own (Fastify's exposeHeadRoutes).
    const routes = server.built.routes.filter((route) => route.method !== 'HEAD');
    const undescribed = routes.filter((route) => !route.openapi);
    expect(undescribed.map((route) => `${route.method} ${route.url}`)).toEqual([]);
    const operations = Object.values(paths).flatMap((item) => Object.keys(item));
    expect(operations).toHaveLength(routes.length);
    expect(operations.length).toBeGreaterThan(50);
  });

  it('has every call of SPEC 7', () => {
    const described = new Set(
      Object.entries(paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method} ${path}`),
      ),
    );
    expect(SPEC_7_CALLS.filter((call) => !described.has(call))).toEqual([]);
  });

  it('requires in a JSON body exactly the fields the route refuses to go without', async () => {
    // Each call open without a session: `{}` is a 400 naming each field the description requires.
    const open = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => !operation.security)
        .flatMap(([method, operation]) => {
          const schema = operation.requestBody?.content['application/json']?.schema;
          return schema?.required ? [{ method, path, required: schema.required as string[] }] : [];
        }),
    );
    expect(open.map(({ method, path }) => `${method} ${path}`)).toEqual(
      expect.arrayContaining(['post /public/signup', 'post /staff/api/login']),
    );
    for (const { method, path, required } of open) {
      const response = await server.client().request(method.toUpperCase(), path, {});
      expect(response.status, `${method} ${path}`).toBe(400);
      expect(Object.keys(response.body.errors).sort(), `${method} ${path}`).toEqual(
        [...required].sort(),
      );
    }
  });

  it('describes a request as the client sends it and the answer as the server sends it', () => {
    // SPEC 7.2's two spellings of add-another, before the transform that reads them as one.
    const addAnother =
      paths['/api/add-another']?.put?.requestBody.content['application/json'].schema;
    expect(addAnother.anyOf).toHaveLength(2);
    expect(addAnother.anyOf[0].required).toEqual(['button_id', 'num_components']);
    // Path parameters from the contract's schemas.
    const link = paths['/staff/api/applications/{id}/links/{tokenId}']?.delete?.parameters;
    expect(link.map((parameter: { name: string }) => parameter.name)).toEqual(['id', 'tokenId']);
    expect(link[0].schema.format).toBe('uuid');
    expect(paths['/api/answer']?.put?.security).toEqual([{ session: [] }]);
    expect(paths['/metrics']?.get?.security).toEqual([{ metricsToken: [] }]);
    // Files are described by their content types.
    expect(Object.keys(paths['/staff/api/export.csv']?.get?.responses['200'].content)).toEqual([
      'text/csv',
    ]);
    expect(Object.keys(paths['/api/uploads']?.post?.requestBody.content)).toEqual([
      'multipart/form-data',
    ]);
  });
});
