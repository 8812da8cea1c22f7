/**
 * /service/*: the staff side (SPEC 6, 7.2). `GET /tmp-pdf?service_token=` reads one applicant's
 * application, read-only; `POST /tokens` mints a link for a staff member holding the tenant's key.
 * Tokens travel in the query string (the spec's contract): the request log masks query strings
 * (`maskUrl`), and answers are `no-store`, `no-referrer` and `noindex`.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  messageResponse,
  mintServiceTokenBody,
  mintServiceTokenResponse,
  revokeServiceTokenParams,
  serviceDataResponse,
  serviceMessages,
  SERVICE_TOKEN_PARAM,
} from '../../contract';
import { HttpError } from '../errors';
import { refusals, staffLogId } from '../security/events';
import type { ServiceContext } from '../http/context';
import {
  mintServiceToken,
  readServiceData,
  revokeServiceToken,
  staffIdFor,
  verifyServiceToken,
} from './serviceTokens';
import { parse } from '../http/parse';
import { described } from '../routeDescription';

/** GET /service/tmp-pdf?service_token=. */
export const serviceTokenQuery = z.object({ [SERVICE_TOKEN_PARAM]: z.string().min(1).max(1024) });

export function serviceRoutes(ctx: ServiceContext): FastifyPluginAsync {
  return async (app) => {
    const staffOf = (request: FastifyRequest) => {
      try {
        return staffIdFor(ctx.config, request.tenant.id, request.headers.authorization);
      } catch (error) {
        return refusals(request, () => 'auth.staff_key_refused')(error);
      }
    };

    const limited = {
      config: { rateLimit: { max: ctx.config.publicRateLimit, timeWindow: '1 minute' } },
    };

    app.addHook('onSend', async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      reply.header('X-Robots-Tag', 'noindex');
    });

    const read = described(
      {
        tag: 'service',
        summary: 'An applicant’s answers through a service link',
        security: 'serviceToken',
        query: serviceTokenQuery,
        response: serviceDataResponse,
      },
      limited,
    );
    app.get('/tmp-pdf', read, async (request) => {
      // Typed here so the compiler knows a call never returns.
      const refused: (error: unknown) => never = refusals(request, (error) =>
        error.statusCode === 401 ? 'token.service_refused' : null,
      );
      const query = serviceTokenQuery.safeParse(request.query);
      if (!query.success) refused(new HttpError(401, serviceMessages.tokenInvalid));
      let grant;
      try {
        grant = verifyServiceToken(ctx.config, query.data[SERVICE_TOKEN_PARAM], request.tenant.id);
      } catch (error) {
        refused(error);
      }
      request.log.info(
        {
          tenant: grant.tenantId,
          staff: staffLogId(request.server.logPseudonymKey, grant.staffId),
          applicant: grant.userId,
        },
        'service view read',
      );
      return readServiceData(ctx, grant, request.tenant).catch(refused);
    });

    // Read-only: no other method reaches the applicant's data.
    app.route({
      method: ['POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/tmp-pdf',
      ...described({
        tag: 'service',
        summary: 'Refused: the service view is read-only',
        status: 405,
        response: messageResponse,
      }),
      handler: async (_request, reply) =>
        reply.status(405).header('Allow', 'GET, HEAD').send({ message: serviceMessages.readOnly }),
    });

    const mint = described(
      {
        tag: 'service',
        summary: 'Mint a service link for an applicant',
        security: 'staffKey',
        body: mintServiceTokenBody,
        response: mintServiceTokenResponse,
      },
      limited,
    );
    app.post('/tokens', mint, async (request) => {
      const staffId = staffOf(request);
      const { email } = parse(mintServiceTokenBody, request.body);
      const minted = await mintServiceToken(ctx, request.tenant.id, email, staffId);
      const staff = staffLogId(request.server.logPseudonymKey, staffId);
      request.log.info({ tenant: request.tenant.id, staff }, 'service link minted');
      return minted;
    });

    const revoke = described(
      {
        tag: 'service',
        summary: 'Revoke a service link',
        security: 'staffKey',
        params: revokeServiceTokenParams,
        response: messageResponse,
      },
      limited,
    );
    app.delete('/tokens/:id', revoke, async (request) => {
      const staffId = staffOf(request);
      const { id } = parse(revokeServiceTokenParams, request.params);
      await revokeServiceToken(ctx, request.tenant.id, id);
      const staff = staffLogId(request.server.logPseudonymKey, staffId);
      request.log.info({ tenant: request.tenant.id, staff }, 'service link revoked');
      return { message: serviceMessages.revoked };
    });
  };
}
