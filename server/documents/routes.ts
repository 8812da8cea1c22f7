/** The document calls of SPEC 7.2 (/api/...); every one needs a live session (401 otherwise). */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import {
  conversionBody,
  conversionResponse,
  documentAnswersResponse,
  presignedUrlBody,
  presignedUrlResponse,
} from '../../contract';
import type { DocumentsContext } from './context';
import { requestConversion } from './conversion';
import { deleteConversion, deleteDocumentAnswer } from './deletion';
import { conversionStatus, documentAnswers } from './state';
import { presign } from './uploads';
import { parse } from '../http/parse';
import { described, type RouteDescription } from '../routeDescription';

const questionKeyParams = z.object({ question_key: z.string().check(z.minLength(1)) });
const conversionQueued = z.object({ status: z.literal('UNPROCESSED') });

/** A document call of the logged-in applicant. */
const call = (
  summary: string,
  rest: Omit<RouteDescription, 'tag' | 'summary' | 'security'> = {},
): RouteDescription => ({ tag: 'documents', summary, security: 'session', ...rest });
const ofQuestion = (summary: string, rest: Omit<RouteDescription, 'tag' | 'summary'> = {}) =>
  described(call(summary, { params: questionKeyParams, status: 204, ...rest }));

export function documentRoutes(ctx: DocumentsContext): FastifyPluginAsync {
  return async (app) => {
    const keyOf = (request: FastifyRequest) =>
      (request.params as { question_key: string }).question_key;

    // Anti-automation on the costly calls (SECURITY.md item 22): per client address, like /public.
    const limited = {
      config: { rateLimit: { max: ctx.config.publicRateLimit, timeWindow: '1 minute' } },
    };

    app.post(
      '/presigned-url',
      described(
        call('A form to upload one file for a question', {
          body: presignedUrlBody,
          response: presignedUrlResponse,
        }),
        limited,
      ),
      async (request) => {
        const body = parse(presignedUrlBody, request.body);
        return presign(ctx, request.user, request.tenant.definition, body.answer_key);
      },
    );

    app.get(
      '/document-answer',
      described(
        call('The document answers: name and size per key', { response: documentAnswersResponse }),
      ),
      async (request) => documentAnswers(ctx, request.user),
    );

    app.delete(
      '/document-answer/:question_key',
      ofQuestion('Remove a document answer'),
      async (request, reply) => {
        await deleteDocumentAnswer(ctx, request.user, request.tenant.definition, keyOf(request));
        return reply.status(204).send();
      },
    );

    app.post(
      '/pdf/document-answer/:question_key',
      described(
        call('Convert an uploaded file', {
          params: questionKeyParams,
          body: conversionBody,
          status: 202,
          response: conversionQueued,
        }),
        limited,
      ),
      async (request, reply) => {
        const body = parse(conversionBody, request.body);
        await requestConversion(ctx, request.user, request.tenant.definition, keyOf(request), body);
        return reply.status(202).send({ status: 'UNPROCESSED' });
      },
    );

    app.get(
      '/pdf/document-answer/:question_key',
      ofQuestion('A conversion’s status', { status: 200, response: conversionResponse }),
      async (request) =>
        conversionStatus(ctx, request.user, request.tenant.definition, keyOf(request)),
    );

    app.delete(
      '/pdf/document-answer/:question_key',
      ofQuestion('Cancel a conversion'),
      async (request, reply) => {
        await deleteConversion(ctx, request.user, request.tenant.definition, keyOf(request));
        return reply.status(204).send();
      },
    );
  };
}
