/**
 * The OpenAPI 3.1 description of the server (D140, D205), served at `/api/openapi.json`: built from
 * the descriptions the routes carry (./described.ts) and their zod schemas through `z.toJSONSchema`,
 * plus the document-level parts kept here (info, tags, security schemes, the error body). Requests
 * are described as a client sends them (`io: 'input'`, before a schema's transforms), answers as the
 * server sends them (`io: 'output'`); checks JSON Schema cannot say (refinements, such as the
 * password rules) are left to the messages of a 400.
 */
import { readFileSync } from 'node:fs';
import { toJSONSchema, type $ZodType } from 'zod/v4/core';
import { errorBody } from '../../contract';
import type { Content, RegisteredRoute, RouteDescription, Security, Tag } from '../routeDescription';

export const OPENAPI_PATH = '/api/openapi.json';

type Json = Record<string, unknown>;

const { version } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

function schemaOf(schema: $ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...json } = toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Json;
  return json;
}

/** An object schema's properties as parameters of `where`. */
function parametersOf(schema: $ZodType | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  const json = schemaOf(schema, 'input') as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: property,
  }));
}

const FILE_TYPES: Record<Exclude<Content, $ZodType>, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv',
  zip: 'application/zip',
  prometheus: 'text/plain; version=0.0.4',
};

function contentOf(content: Content): Json {
  if (typeof content === 'string')
    return {
      [FILE_TYPES[content]]: {
        schema:
          content === 'pdf' || content === 'zip'
            ? { type: 'string', contentMediaType: FILE_TYPES[content] }
            : { type: 'string' },
      },
    };
  return { 'application/json': { schema: schemaOf(content, 'output') } };
}

interface Operation extends RouteDescription {
  readonly method: string;
  /** OpenAPI's form: `{param}`. */
  readonly path: string;
}

function operationOf(operation: Operation): Json {
  const status = operation.status ?? 200;
  const parameters = [
    ...parametersOf(operation.params, 'path'),
    ...parametersOf(operation.query, 'query'),
  ];
  const body = operation.body;
  return {
    operationId: `${operation.method}${operation.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, next: string | undefined) => (next ?? '').toUpperCase())}`,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.security ? { security: [{ [operation.security]: [] }] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body === 'multipart'
      ? {
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  description: 'Every field of the presigned form, then `file`',
                  properties: {
                    file: { type: 'string', contentMediaType: 'application/octet-stream' },
                  },
                  required: ['file'],
                },
              },
            },
          },
        }
      : body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: schemaOf(body, 'input') } },
            },
          }
        : {}),
    responses: {
      [String(status)]: {
        description: status === 204 ? 'Done; no body' : 'The answer',
        ...(operation.response ? { content: contentOf(operation.response) } : {}),
      },
      default: {
        description: 'A refusal or an error: a message in plain words (ARCHITECTURE.md)',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  };
}

const SECURITY_SCHEMES: Record<Security, Json> = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'session',
    description: 'The applicant’s session, set by POST /public/login (`__Host-session` on https)',
  },
  staffSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'staff',
    description: 'A staff session, set by POST /staff/api/login (`__Host-staff` on https)',
  },
  staffKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'The tenant’s STAFF_API_KEYS key, or the command line’s DATA_DIR/cli.key',
  },
  metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN' },
  serviceToken: {
    type: 'apiKey',
    in: 'query',
    name: 'service_token',
    description: 'A service link’s token (SPEC 2.9)',
  },
};

const TAGS: Record<Tag, string> = {
  accounts: 'Accounts and answers kept before signing up (SPEC 7.2)',
  application: 'The logged-in applicant’s application (SPEC 7.2)',
  documents: 'Document uploads and conversions (SPEC 4.4)',
  lookup: 'School and address lookup (SPEC 3.7)',
  service: 'The read-only service view and its links (SPEC 2.9)',
  staff: 'The staff console (docs/staff.md)',
  operations: 'Health, readiness, metrics and this description (docs/operations.md)',
};

/** Fastify's `/a/:id/` as OpenAPI's `/a/{id}`. */
const openApiPath = (url: string) =>
  url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/(.)\/$/, '$1');

/** The described routes' operations (HEAD answers each GET on its own: not described apart). */
function operationsOf(routes: readonly RegisteredRoute[]): Operation[] {
  return routes.flatMap(({ method, url, openapi }) =>
    openapi && method !== 'HEAD'
      ? [{ ...openapi, method: method.toLowerCase(), path: openApiPath(url) }]
      : [],
  );
}

export function buildOpenApiDocument(routes: readonly RegisteredRoute[]): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const operation of operationsOf(routes))
    (paths[operation.path] ??= {})[operation.method] = operationOf(operation);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Admission application',
      version,
      description:
        'The platform server’s calls. Every body is JSON; every refusal answers `{ "message" }` in plain words. A tenant is chosen by the Host header.',
    },
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: { Error: schemaOf(errorBody, 'output') },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/** The document as served by one server: built at its first request, the same bytes every time. */
export function openApiJson(routes: readonly RegisteredRoute[]): () => string {
  let served: string | undefined;
  return () => (served ??= JSON.stringify(buildOpenApiDocument(routes)));
}
