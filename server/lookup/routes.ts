/** GET /lookup/find (SPEC 7.2): suggestions or a detail record; public, rate-limited per client address. */
import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod/mini';
import { lookupDetail, lookupMessages, lookupQuery, lookupSuggestions } from '../../contract';
import type { ServiceContext } from '../http/context';
import { HttpError } from '../errors';
import { parse } from '../http/parse';
import { described } from '../routeDescription';
import type { LookupService } from './service';

export function lookupRoutes(ctx: ServiceContext, service: LookupService): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/find',
      described(
        {
          tag: 'lookup',
          summary: 'Suggestions for typed text, or one entry’s detail',
          query: lookupQuery,
          response: z.union([lookupSuggestions, lookupDetail]),
        },
        { config: { rateLimit: { max: ctx.config.lookupRateLimit, timeWindow: '1 minute' } } },
      ),
      async (request) => {
        const query = parse(lookupQuery, request.query);
        if (query.kind === 'search')
          return service.search(request.tenant.id, query.category, query.text, query.maxResults);
        const detail = await service.detail(
          request.tenant.id,
          request.tenant.definition,
          query.category,
          query.id,
        );
        if (!detail) throw new HttpError(404, lookupMessages.notFound);
        return detail;
      },
    );
  };
}
