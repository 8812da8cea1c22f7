/**
 * `/platform/api`: tenant administration for `npm run tenant` (D145). Only the command line's key
 * (DATA_DIR/cli.key) opens it, as `npm run staff` opens its call: the platform's operator acts on
 * every tenant, which no staff member of one tenant may. After a change the server serves it at once.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import {
  messageResponse,
  TENANT_FILE_LIMITS,
  tenantAddBody,
  tenantExportQuery,
  tenantInstitutionBody,
  tenantParams,
  tenantPublishBody,
  tenantPublishResponse,
} from '../../contract';
import type { Database } from '../db/client';
import { HttpError } from '../errors';
import { parse } from '../http/parse';
import { described, type RouteDescription } from '../routeDescription';
import { sameSecret } from '../secrets';
import { securityEvent } from '../security/events';
import { cliKey } from '../serviceView';
import type { ServerConfig } from '../config';
import { NoSuchTenant } from '../tenants';
import {
  addTenant,
  CLI_PUBLISHER,
  exportTenant,
  listTenants,
  publishTenantDefinition,
  replaceInstitution,
  TenantFileRefused,
} from './tenantAdmin';

export interface PlatformContext {
  readonly db: Database;
  readonly config: ServerConfig;
  /** Reloads the tenant directory, so a change is served at once. */
  readonly reload: () => Promise<void>;
}

const NOT_ALLOWED = 'This call needs the command line key of the server.';
const NO_TENANT = 'There is no such tenant.';
const NO_VERSION = 'There is no such tenant, or it has no such version.';

const fileRoute = {
  bodyLimit: TENANT_FILE_LIMITS.bytes,
  config: { json: { depth: TENANT_FILE_LIMITS.depth, members: TENANT_FILE_LIMITS.members } },
};

/** A call of the platform's operator, with the command line's key. */
const call = (
  summary: string,
  rest: Omit<RouteDescription, 'tag' | 'summary' | 'security'>,
): RouteDescription => ({ tag: 'operations', summary, security: 'staffKey', ...rest });

function refusedFiles(error: unknown): never {
  if (error instanceof TenantFileRefused)
    throw new HttpError(400, 'The files were refused.', { problems: error.problems });
  throw error;
}

export function platformRoutes(ctx: PlatformContext) {
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request: FastifyRequest) => {
      const presented = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (!presented || !sameSecret(presented, cliKey(ctx.config))) {
        securityEvent(request, 'auth.staff_key_refused');
        throw new HttpError(401, NOT_ALLOWED);
      }
    });

    app.get(
      '/tenants',
      described(
        call('Every college, its hosts and versions (the command line key)', {
          response: z.object({ tenants: z.array(z.unknown()) }),
        }),
      ),
      async () => ({ tenants: await listTenants(ctx.db) }),
    );

    app.post(
      '/tenants',
      described(
        call('Add a college from its two files', {
          body: tenantAddBody,
          response: z.object({ version: z.number() }),
        }),
        fileRoute,
      ),
      async (request) => {
        const body = parse(tenantAddBody, request.body);
        const added = await addTenant(ctx, body).catch(refusedFiles);
        await ctx.reload();
        return added;
      },
    );

    app.post(
      '/tenants/:id/versions',
      described(
        call('Publish a new version of its form (none when it equals the latest)', {
          params: tenantParams,
          body: tenantPublishBody,
          response: tenantPublishResponse,
        }),
        fileRoute,
      ),
      async (request) => {
        const { id } = parse(tenantParams, request.params);
        const { definition, ...publish } = parse(tenantPublishBody, request.body);
        const answer = await publishTenantDefinition(ctx, id, definition, CLI_PUBLISHER, publish)
          .catch(refusedFiles)
          .catch(missingTenant);
        if (!answer.unchanged && !publish.dryRun) await ctx.reload();
        return answer;
      },
    );

    app.put(
      '/tenants/:id/institution',
      described(
        call('Replace its institution file', {
          params: tenantParams,
          body: tenantInstitutionBody,
          response: messageResponse,
        }),
        fileRoute,
      ),
      async (request) => {
        const { id } = parse(tenantParams, request.params);
        const body = parse(tenantInstitutionBody, request.body);
        await replaceInstitution(ctx, id, body.institution)
          .catch(refusedFiles)
          .catch(missingTenant);
        await ctx.reload();
        return { message: 'The institution file has been replaced.' };
      },
    );

    app.get(
      '/tenants/:id/export',
      described(
        call('Its institution file and latest definition (or version N)', {
          params: tenantParams,
          query: tenantExportQuery,
          response: z.object({
            institution: z.unknown(),
            definition: z.unknown(),
            version: z.number(),
          }),
        }),
      ),
      async (request) => {
        const { id } = parse(tenantParams, request.params);
        const { version } = parse(tenantExportQuery, request.query);
        const files = await exportTenant(
          ctx.db,
          id,
          version === undefined ? undefined : Number(version),
        );
        if (!files) throw new HttpError(404, version ? NO_VERSION : NO_TENANT);
        return files;
      },
    );
  };
}

function missingTenant(error: unknown): never {
  if (error instanceof NoSuchTenant) throw new HttpError(404, NO_TENANT);
  throw error;
}
