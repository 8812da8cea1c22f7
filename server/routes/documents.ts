/** The document calls of SPEC 7.2 (/api/...); every one needs a live session (401 otherwise). */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { conversionBody, presignedUrlBody } from '../../contract';
import * as docs from '../services/documents';
import { parse } from './parse';
import { requireApplicant } from './session';

export function documentRoutes(ctx: docs.DocumentsContext): FastifyPluginAsync {
  return async (app) => {
    const userOf = (request: FastifyRequest, reply: FastifyReply) =>
      requireApplicant(ctx, request, reply);
    const keyOf = (request: FastifyRequest) =>
      (request.params as { question_key: string }).question_key;

    // Anti-automation on the costly calls (SECURITY.md item 22): per client address, like /public.
    const limited = {
      config: { rateLimit: { max: ctx.config.publicRateLimit, timeWindow: '1 minute' } },
    };

    app.post('/presigned-url', limited, async (request, reply) => {
      const user = await userOf(request, reply);
      const body = parse(presignedUrlBody, request.body);
      return docs.presign(ctx, user, request.tenant.definition, body.answer_key);
    });

    app.get('/document-answer', async (request, reply) =>
      docs.documentAnswers(ctx, await userOf(request, reply)),
    );

    app.delete('/document-answer/:question_key', async (request, reply) => {
      const user = await userOf(request, reply);
      await docs.deleteDocumentAnswer(ctx, user, request.tenant.definition, keyOf(request));
      return reply.status(204).send();
    });

    app.post('/pdf/document-answer/:question_key', limited, async (request, reply) => {
      const user = await userOf(request, reply);
      const body = parse(conversionBody, request.body);
      await docs.requestConversion(ctx, user, request.tenant.definition, keyOf(request), body);
      return reply.status(202).send({ status: 'UNPROCESSED' });
    });

    app.get('/pdf/document-answer/:question_key', async (request, reply) => {
      const user = await userOf(request, reply);
      return docs.conversionStatus(ctx, user, request.tenant.definition, keyOf(request));
    });

    app.delete('/pdf/document-answer/:question_key', async (request, reply) => {
      const user = await userOf(request, reply);
      await docs.deleteConversion(ctx, user, request.tenant.definition, keyOf(request));
      return reply.status(204).send();
    });
  };
}
