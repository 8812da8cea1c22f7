/**
 * The temporary answers (SPEC 7.2 /public/tmp, D70): anonymous answers behind a token, before an
 * account exists. The application's own routes, registered beside the account's public calls under
 * /public with the same per-address rate limit, so the account imports no application (D204).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { serverMessages, tmpAnswersBody, tmpAnswersResponse } from '../../contract';
import { dataModelKeys } from '../../runtime';
import type { HttpError } from '../errors';
import type { ServiceContext } from '../http/context';
import { parse } from '../http/parse';
import { described } from '../routeDescription';
import { refusals } from '../security/events';
import { ANSWERS_BODY_BYTES } from '../security/jsonBody';
import { readTmpAnswers, storeTmpAnswers } from './tmpAnswers';

/** GET /public/tmp?token=: the temporary answers' token. */
export const tmpTokenQuery = z.object({ token: z.string().min(16).max(200) });

const tmpTokenResponse = z.object({ token: z.string() });

export function tmpAnswersRoutes(ctx: ServiceContext): FastifyPluginAsync {
  return async (app) => {
    const limited = {
      config: { rateLimit: { max: ctx.config.publicRateLimit, timeWindow: '1 minute' } },
    };
    // { answers }: the answers' limits one level down.
    const tmpLimits = {
      bodyLimit: ANSWERS_BODY_BYTES,
      config: {
        ...limited.config,
        json: {
          depth: 3,
          members: (request: FastifyRequest) => dataModelKeys(request.tenant.definition).length + 1,
        },
      },
    };
    const storeTmp = described(
      {
        tag: 'accounts',
        summary: 'Keep answers given before signing up',
        body: tmpAnswersBody,
        response: tmpTokenResponse,
      },
      tmpLimits,
    );
    app.post('/tmp', storeTmp, async (request) =>
      storeTmpAnswers(
        ctx,
        request.tenant.id,
        request.tenant.definition,
        parse(tmpAnswersBody, request.body).answers,
      ),
    );

    const readTmp = described(
      {
        tag: 'accounts',
        summary: 'Read the answers kept before signing up',
        query: tmpTokenQuery,
        response: tmpAnswersResponse,
      },
      limited,
    );
    app.get('/tmp', readTmp, async (request, reply) => {
      reply.header('X-Robots-Tag', 'noindex');
      const refused = (error: HttpError) =>
        error.message === serverMessages.tmpExpired ? 'token.tmp_refused' : null;
      return readTmpAnswers(
        ctx,
        request.tenant.id,
        request.tenant.definition,
        parse(tmpTokenQuery, request.query).token,
      ).catch(refusals(request, refused));
    });
  };
}
