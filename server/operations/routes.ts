/**
 * What an operator watches (D139): `/healthz` (liveness: the database answers a `select 1`),
 * `/readyz` (readiness: ./readiness.ts) and, with METRICS_TOKEN set, `/metrics` for a Prometheus
 * scraper presenting `Authorization: Bearer <METRICS_TOKEN>`. Unset, `/metrics` does not exist (404).
 * And the OpenAPI description (D140).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/client';
import { HttpError } from '../errors';
import * as z from 'zod/mini';
import { ignoredResponse } from '../../contract';
import { described, type RegisteredRoute } from '../routeDescription';
import { OPENAPI_PATH, openApiJson } from '../openapi/document';
import { sameSecret } from '../secrets';
import { securityEvent } from '../security/events';
import { ServerMetrics } from './metrics';
import { requestDuration } from '../processMetrics';
import { ReadinessCheck, type WorkerStarting } from './readiness';

export const METRICS_PATH = '/metrics';
export const metricsMessages = {
  unauthorized: 'Metrics are read with the bearer token of METRICS_TOKEN.',
} as const;

export interface OperationsOptions {
  readonly database: DatabaseHandle;
  readonly metricsToken: string | undefined;
  readonly now: () => Date;
  /** The kinds the job queue runs (named in the metrics at zero too). */
  readonly jobKinds: () => readonly string[];
  /** Every route registered, with its description: the OpenAPI document's source (D205). */
  readonly routes: readonly RegisteredRoute[];
  /** Whether this process's own worker is still starting (`/readyz`, D195). */
  readonly workerStarting?: WorkerStarting;
}

const checks = z.enum(['ok', 'failed']);
const readinessResponse = z.object({
  status: z.enum(['ready', 'not ready']),
  checks: z.object({
    database: checks,
    migrations: checks,
    worker: z.enum(['ok', 'starting', 'failed']),
  }),
});
const healthResponse = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
});

/** On the root instance (not a plugin): the request timing hook applies to every route. */
export function registerOperations(app: FastifyInstance, options: OperationsOptions): void {
  const { database } = options;
  app.addHook('onResponse', async (request, reply) => {
    requestDuration.observe(
      {
        method: request.method,
        // The pattern (`/staff/api/applications/:id`), never the path with its ids.
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });

  const health = described({
    tag: 'operations',
    summary: 'Liveness: the process and its database answer',
    response: healthResponse,
  });
  app.get('/healthz', health, async () => {
    await database.db.execute(sql`select 1`);
    return { status: 'ok', database: database.kind };
  });

  const readiness = new ReadinessCheck(database.db, options.now, options.workerStarting);
  const ready = described({
    tag: 'operations',
    summary: 'Readiness: database, migrations, a live worker (else 503)',
    response: readinessResponse,
  });
  app.get('/readyz', ready, async (_request, reply) => {
    const { ready, checks } = await readiness.check();
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });

  // Outside /api's session check: integrators read it before they have an account (D140).
  const openApi = openApiJson(options.routes);
  const description = described({
    tag: 'operations',
    summary: 'This description',
    response: ignoredResponse,
  });
  app.get(OPENAPI_PATH, description, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(openApi()),
  );

  const token = options.metricsToken;
  if (token === undefined) return;
  let metrics: ServerMetrics | undefined;
  const scrape = described({
    tag: 'operations',
    summary: 'Prometheus metrics (only with METRICS_TOKEN set)',
    security: 'metricsToken',
    response: 'prometheus',
  });
  app.get(METRICS_PATH, scrape, async (request, reply) => {
    const presented = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (presented === undefined || !sameSecret(presented, token)) {
      securityEvent(request, 'metrics.token_refused');
      reply.header('WWW-Authenticate', 'Bearer');
      throw new HttpError(401, metricsMessages.unauthorized);
    }
    metrics ??= new ServerMetrics(database, options.jobKinds(), options.now);
    const text = await metrics.scrape();
    return reply.type(metrics.contentType).header('Cache-Control', 'no-store').send(text);
  });
}
