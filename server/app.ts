/**
 * The platform server, built by a factory so tests start real instances on a free port.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { GENERIC_ERROR_MESSAGE, serverMessages } from '../contract';
import type { Definition } from '../runtime';
import type { ServerConfig } from './config';
import { bypassesRowSecurity, openDatabase, type DatabaseHandle } from './db/client';
import { enterTenant, runInTenant } from './db/tenantScope';
import { HttpError, isDeletedAccountWrite } from './errors';
import { OutboxMailer, SmtpMailer, type Mailer } from './mail/mailer';
import { PasswordHasher } from './passwords';
import { LookupService, lookupRoutes, seedSampleLists } from './lookup';
import { accountRoutes, publicRoutes, registerSessionCheck } from './account';
import { apiRoutes, tmpAnswersRoutes } from './application';
import { documentRoutes, type DocumentsContext } from './documents';
import { pdfRoutes, requestPdf } from './applicationPdf';
import { createJobs } from './jobKinds';
import { WorkerProcess, WORKER_STOP_MS } from './jobs/workerProcess';
import { ClosingSteps, JOB_GRACE_MS } from './shutdown';
import { LocalStorage, UPLOAD_PATH } from './storage/local';
import { uploadRoute } from './storage/uploadRoute';
import { registerOperations } from './operations/routes';
import { collectRoutes, type RegisteredRoute } from './routeDescription';
import { serviceRoutes } from './serviceView';
import { answerColumns, staffRoutes } from './staff';
import { platformRoutes } from './platform';
import { indexPageSender, registerSecurityHeaders } from './security/headers';
import { registerLogPseudonyms, securityEvent } from './security/events';
import { isStorableText } from './security/json';
import { clientErrorHandler, errorFields, requestLogFields } from './security/logFields';
import { DEFAULT_JSON_LIMITS, registerJsonParser } from './security/jsonBody';
import { registerUnreadBodyDrain } from './security/unreadBody';
import type { ServiceContext } from './http/context';
import { vaultOf } from './crypto/answerVault';
import { sealAllTenants } from './atRest/sealAtRest';
import { scheduleRetentionSweep } from './retention';
import {
  DEFAULT_TENANT_SEED,
  definitionsById,
  ensureTenant,
  TenantDirectory,
  type TenantSeed,
} from './tenants';
import type { Tenant } from './tenant';

declare module 'fastify' {
  interface FastifyRequest {
    tenant: Tenant;
  }
}

export interface BuildOptions {
  /** An opened database (tests); otherwise opened from the configuration. */
  readonly database?: DatabaseHandle;
  readonly mailer?: Mailer;
  /** Where log lines go (default stdout); tests capture them. */
  readonly logStream?: NodeJS.WritableStream;
  /** Extra tenants to create (tests of tenant isolation). */
  readonly tenants?: readonly TenantSeed[];
  /** Definitions beyond the platform's own, for the extra tenants (tests of other forms). */
  readonly definitions?: readonly Definition[];
  /** Start the job worker in this process (default true); tests of restarts start it themselves. */
  readonly startWorker?: boolean;
  /** Run the job worker in a child process instead (D98; `npm start`, JOB_WORKER=process). */
  readonly workerProcess?: boolean;
}

export interface BuiltServer {
  readonly app: FastifyInstance;
  readonly context: ServiceContext;
  readonly database: DatabaseHandle;
  readonly tenants: TenantDirectory;
  readonly documents: DocumentsContext;
  /** The close steps and requests still running (a bounded shutdown names what it left behind). */
  readonly closing: ClosingSteps;
  /** The worker child process, when the jobs run in one. */
  readonly workerProcess: WorkerProcess | undefined;
  /** Every route the server answers, with its description (tests walk them all with hostile input). */
  readonly routes: readonly RegisteredRoute[];
}

/**
 * TRUST_PROXY as Fastify takes it. Fastify 5 reads a bare number as "trust nobody", so a hop count
 * becomes proxy-addr's function form: the nearest `hops` addresses are proxies (D76).
 */
function fastifyTrustProxy(trust: ServerConfig['trustProxy']) {
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust === false ? false : [...trust];
}

export async function buildServer(
  config: ServerConfig,
  options: BuildOptions = {},
): Promise<BuiltServer> {
  const app = Fastify({
    trustProxy: fastifyTrustProxy(config.trustProxy),
    clientErrorHandler,
    bodyLimit: DEFAULT_JSON_LIMITS.bytes,
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      redact: {
        paths: [
          'req.headers.cookie',
          'req.headers.authorization',
          // @fastify/multipart traces the request's headers.
          'busboyOptions.headers',
          'res.headers["set-cookie"]',
          '*.password',
          '*.code',
        ],
        censor: '***',
      },
      serializers: {
        req: (request: FastifyRequest) => requestLogFields(request),
      },
    },
  });

  const closing = new ClosingSteps();
  closing.trackRequests(app);
  closing.nameCloseHooks(app);
  // Each route's OpenAPI description comes with it (D205): the document is built from these.
  const routes = collectRoutes(app);

  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      migrationUrl: config.databaseMigrationUrl,
      dataDir: config.dataDir,
    }));
  if (database.kind === 'postgres' && (await bypassesRowSecurity(database)))
    app.log.warn(
      'the database role is a superuser or has BYPASSRLS: row-level security does not apply (docs/operations.md)',
    );
  const seedDefinitions = new Map([
    ...definitionsById,
    ...(options.definitions ?? []).map((definition) => [definition.id, definition] as const),
  ]);
  await ensureTenant(
    database.db,
    { ...DEFAULT_TENANT_SEED, id: config.defaultTenant },
    seedDefinitions,
  );
  for (const tenant of options.tenants ?? [])
    await ensureTenant(database.db, tenant, seedDefinitions);
  const directory = new TenantDirectory(config.defaultTenant);
  await directory.load(database.db);
  registerLogPseudonyms(app, config);
  // Lookup (D46): the bundled sample lists, for tenants that have no list of a category yet,
  // seeded beside the start (lookups wait for it) so a fresh data directory serves at once.
  const lookupReady = (async () => {
    for (const tenant of directory.all())
      await runInTenant(tenant.id, () =>
        seedSampleLists(database.db, tenant.id, tenant.definition, config.now(), app.log),
      );
  })();
  lookupReady.catch((error: Error) =>
    app.log.error({ err: errorFields(error) }, 'seeding the sample lookup lists failed'),
  );
  closing.add(app, 'start-up tasks', () => lookupReady.catch(() => undefined));

  // Mail is queued by the requests and sent by the job worker with this mailer (D138).
  const mailer =
    options.mailer ??
    (config.smtpUrl
      ? new SmtpMailer(config.smtpUrl, config.mailFrom, app.log)
      : new OutboxMailer(config.dataDir, app.log, config.env === 'development'));
  const hasher = new PasswordHasher(config.argon2);
  // Documents (SPEC 4.4), the application PDF (D55) and mail (D138): storage, the job queue and
  // its kinds. Its worker loop runs here (tests, JOB_WORKER=inline) or in a worker process (D98).
  const { queue, printer, sandbox, documents, pdfContext, mail } = createJobs(
    config,
    database,
    mailer,
    app.log,
    directory,
    hasher,
  );
  const context: ServiceContext = {
    db: database.db,
    config,
    mail,
    jobs: queue,
    hasher,
    log: app.log,
    institutionOf: (tenantId) => directory.institutionOf(tenantId),
    originOf: (tenantId) => directory.originOf(tenantId, config),
  };
  // D150, D154: answers and objects stored before they were encrypted are sealed before any request.
  await sealAllTenants(database.db, vaultOf(context), directory.all(), documents.storage, app.log);

  // JSON only, parsed under each route's limits while it arrives (server/security/jsonBody.ts).
  registerJsonParser(app);
  // A refusal sent before the body is read waits, within a bound, for the client to finish (D119).
  registerUnreadBodyDrain(app);

  // First, so that every answer carries them, including refusals by the hooks below.
  const cspDirectives = await registerSecurityHeaders(app, config);

  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new HttpError(429, serverMessages.tooManyRequests),
    onExceeded: (request) => securityEvent(request, 'rate_limit.hit'),
  });

  // The tenant of the Host header, and its scope for every query the request makes (D56). Fastify
  // calls the next hooks from `done` and continues after reading a body in the request's async
  // context, so the scope entered here holds through the handler (tests/security/rls.test.ts sends a
  // body in pieces to prove it).
  app.decorateRequest('tenant', null as unknown as Tenant);
  app.addHook('onRequest', (request, _reply, done) => {
    request.tenant = directory.forHost(request.headers.host);
    enterTenant(request.tenant.id, done);
  });

  // Paths and query strings: the same text rule as JSON bodies (a NUL reaching a query is a 500).
  app.addHook('onRequest', async (request) => {
    const values = [
      ...Object.values((request.params ?? {}) as Record<string, unknown>),
      ...Object.values((request.query ?? {}) as Record<string, unknown>).flat(),
    ];
    if (values.some((value) => typeof value === 'string' && !isStorableText(value)))
      throw new HttpError(400, serverMessages.badRequest);
  });

  // Cross-site requests never change state (SameSite cookies, plus Fetch Metadata and Origin checks).
  app.addHook('onRequest', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS')
      return;
    if (isCrossSite(request)) {
      securityEvent(request, 'csrf.refused');
      throw new HttpError(403, serverMessages.crossSite);
    }
  });
  function isCrossSite(request: FastifyRequest): boolean {
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
    const origin = request.headers.origin;
    if (origin === undefined) return false;
    if (origin === 'null') return true;
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      return true;
    }
    return origin !== config.publicOrigin && originHost !== request.headers.host;
  }

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ message: error.message, ...error.extra });
    }
    if (isDeletedAccountWrite(error))
      return request.url.startsWith('/api/')
        ? reply.status(401).send({ message: serverMessages.sessionRequired })
        : reply.status(404).send({ message: serverMessages.notFound });
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status === 413) return reply.status(413).send({ message: serverMessages.tooLarge });
    if (status === 415) return reply.status(415).send({ message: serverMessages.unsupportedType });
    if (status === 429) return reply.status(429).send({ message: serverMessages.tooManyRequests });
    if (status >= 400 && status < 500) {
      request.log.info({ code: (error as { code?: string }).code }, 'bad request');
      return reply.status(status).send({ message: serverMessages.badRequest });
    }
    request.log.error({ err: errorFields(error) }, 'request failed');
    return reply.status(500).send({ message: GENERIC_ERROR_MESSAGE });
  });

  const storage = documents.storage;
  const workerProcess = options.workerProcess ? new WorkerProcess(database, app.log) : undefined;
  const inlineWorker = !workerProcess && options.startWorker !== false;
  // /healthz, /readyz, /metrics and the request timings (D139).
  registerOperations(app, {
    database,
    metricsToken: config.metricsToken,
    now: config.now,
    jobKinds: () => queue.kindNames,
    routes,
    workerStarting: () =>
      workerProcess ? workerProcess.starting() : inlineWorker && queue.heartbeat.starting,
  });

  await app.register(publicRoutes(context), { prefix: '/public' });
  await app.register(tmpAnswersRoutes(context), { prefix: '/public' });
  // Every /api call needs a live session, checked before its body is read (D72).
  await app.register(
    async (api) => {
      registerSessionCheck(api, context);
      await api.register(
        apiRoutes(context, {
          // The applicant's PDF copy is prepared right after a submit (SPEC 2.4).
          onSubmitted: (user, definitions) => requestPdf(pdfContext, user, definitions),
        }),
      );
      await api.register(documentRoutes(documents));
      await api.register(pdfRoutes(pdfContext));
      await api.register(accountRoutes(documents, answerColumns));
    },
    { prefix: '/api' },
  );
  if (storage instanceof LocalStorage)
    await app.register(uploadRoute(storage), { prefix: UPLOAD_PATH });
  await app.register(serviceRoutes(context), { prefix: '/service' });
  await app.register(staffRoutes(pdfContext), { prefix: '/staff/api' });
  await app.register(
    platformRoutes({ db: database.db, config, reload: () => directory.load(database.db) }),
    { prefix: '/platform/api' },
  );
  await app.register(lookupRoutes(context, new LookupService(database.db, lookupReady)), {
    prefix: '/lookup',
  });

  // SECURITY.md 7.16: a call used with the wrong method (a GET to a state-changing call) is 405.
  const otherMethods = (method: string, url: string) =>
    (['GET', 'POST', 'PUT', 'DELETE'] as const).filter(
      (other) => other !== method && app.hasRoute({ method: other, url }),
    );
  const refuseMethod = (reply: FastifyReply, allowed: readonly string[]) =>
    reply
      .status(405)
      .header('Allow', allowed.join(', '))
      .send({ message: serverMessages.methodNotAllowed });

  if (workerProcess) {
    app.addHook('onReady', async () => workerProcess.start());
    closing.add(app, 'job worker process', () => workerProcess.stop(), WORKER_STOP_MS + 500, {
      atStart: true,
    });
  } else if (inlineWorker) app.addHook('onReady', async () => queue.start());
  closing.add(app, 'job worker', () => queue.stop({ graceMs: JOB_GRACE_MS }), JOB_GRACE_MS + 1000, {
    atStart: true,
  });
  closing.add(app, 'chromium and conversion sandbox', () =>
    Promise.all([printer.close(), sandbox.close()]),
  );

  const indexFile = path.join(config.clientDir, 'index.html');
  if (existsSync(indexFile)) {
    const sendIndex = indexPageSender(config.clientDir, cspDirectives);
    await app.register(fastifyStatic, {
      root: config.clientDir,
      wildcard: false,
      cacheControl: false,
      // The build's .br and .gz siblings, chosen by Accept-Encoding (identity when neither fits).
      preCompressed: true,
      // index.html is sent by sendIndex only (it carries a fresh CSP nonce per response).
      index: false,
      // The compressed siblings are reached only through content negotiation, never by name.
      allowedPath: (pathname) => pathname !== '/index.html' && !/\.(br|gz)$/.test(pathname),
    });
    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split('?')[0] ?? '';
      const allowed = otherMethods(request.method, pathname);
      if (allowed.length > 0) return refuseMethod(reply, allowed);
      const isApi = /^\/(api|public|service|lookup|staff\/api)(\/|$)/.test(pathname);
      // Only page navigations get the app; a missing file (an old asset) is a plain 404.
      const isFile = /\.[a-z0-9]+$/i.test(pathname) || pathname.startsWith('/assets/');
      if ((request.method === 'GET' || request.method === 'HEAD') && !isApi && !isFile)
        return sendIndex(request, reply);
      return reply.status(404).send({ message: serverMessages.notFound });
    });
  } else {
    app.setNotFoundHandler((request, reply) => {
      const allowed = otherMethods(request.method, request.url.split('?')[0] ?? '');
      if (allowed.length > 0) return refuseMethod(reply, allowed);
      return reply.status(404).send({ message: serverMessages.notFound });
    });
  }

  // Another process's publish or new college is served here within seconds (D145).
  const unfollow = directory.follow(database.db, config.tenantRefreshMs, app.log);
  app.addHook('onClose', async () => unfollow());
  // The retention sweep's chain (D153), queued once whichever process runs the worker.
  app.addHook('onReady', async () => scheduleRetentionSweep(queue, config.now()));
  if (!options.database) closing.add(app, 'database', () => database.close());

  return {
    app,
    context,
    database,
    tenants: directory,
    documents,
    closing,
    workerProcess,
    routes,
  };
}
