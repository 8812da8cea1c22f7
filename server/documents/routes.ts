/** The document calls of SPEC 7.2 (/api/...); every one needs a live session (401 otherwise). */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { conversionBody, presignedUrlBody } from '../../contract';
import type { DocumentsContext } from './context';
import { requestConversion } from './conversion';
import { deleteConversion, deleteDocumentAnswer } from './deletion';
import { conversionStatus, documentAnswers } from './state';
import { presign } from './uploads';
import { parse } from '../http/parse';

export function documentRoutes(ctx: DocumentsContext): FastifyPluginAsync {
  return async (app) => {
    const keyOf = (request: FastifyRequest) =>
      (request.params as { question_key: string }).question_key;

    // Anti-automation on the costly calls (SECURITY.md item 22): per client address, like /public.
    const limited = {
      config: { rateLimit: { max: ctx.config.publicRateLimit, timeWindow: '1 minute' } },
    };

    app.post('/presigned-url', limited, async (request) => {
      const body = parse(presignedUrlBody, request.body);
      return presign(ctx, request.user, request.tenant.definition, body.answer_key);
    });

    app.get('/document-answer', async (request) => documentAnswers(ctx, request.user));

    app.delete('/document-answer/:question_key', async (request, reply) => {
      await deleteDocumentAnswer(ctx, request.user, request.tenant.definition, keyOf(request));
      return reply.status(204).send();
    });

    app.post('/pdf/document-answer/:question_key', limited, async (request, reply) => {
      const body = parse(conversionBody, request.body);
      await requestConversion(ctx, request.user, request.tenant.definition, keyOf(request), body);
      return reply.status(202).send({ status: 'UNPROCESSED' });
    });

    app.get('/pdf/document-answer/:question_key', async (request) =>
      conversionStatus(ctx, request.user, request.tenant.definition, keyOf(request)),
    );

    app.delete('/pdf/document-answer/:question_key', async (request, reply) => {
      await deleteConversion(ctx, request.user, request.tenant.definition, keyOf(request));
      return reply.status(204).send();
    });
  };
}
