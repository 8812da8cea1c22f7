/** The logged-in applicant's calls (SPEC 7.2, /api/*). Any call without a live session answers 401. */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  addAnotherBody,
  answersBody,
  lastPageBody,
  serverMessages,
  tabsBody,
  validationsBody,
  VALIDATION_MESSAGES_PER_KEY,
  webStatusBody,
} from '../../contract';
import { CLEAR_SITE_DATA, clearSessionCookies } from '../cookies';
import { HttpError } from '../errors';
import * as applications from './applications';
import * as formState from './formState';
import { dataModelKeys } from '../../runtime';
import { ANSWERS_BODY_BYTES } from '../security/jsonBody';
import type { ServiceContext } from '../http/context';
import type { DefinitionAt } from '../tenant';
import { endAllSessions, endSession, type SessionUser } from '../account';
import { parse } from '../http/parse';
import { errorFields } from '../security/logFields';

export interface ApiHooks {
  /** After a submit that went through (also a repeated one): errors are logged, never answered. */
  readonly onSubmitted?: (user: SessionUser, definitions: DefinitionAt) => Promise<unknown>;
}

export function apiRoutes(ctx: ServiceContext, hooks: ApiHooks = {}): FastifyPluginAsync {
  return async (app) => {
    const definition = (request: FastifyRequest) => request.tenant.definition;
    // The whole application's answers: one member per key of the tenant's data model at most, and
    // one level under it so a wrong value is still named (server/security/jsonBody.ts).
    const answerKeys = (request: FastifyRequest) => dataModelKeys(definition(request)).length;
    const answersLimits = {
      bodyLimit: ANSWERS_BODY_BYTES,
      config: { json: { depth: 2, members: answerKeys } },
    };
    const validationsLimits = {
      bodyLimit: ANSWERS_BODY_BYTES,
      config: {
        json: {
          depth: 2,
          members: (request: FastifyRequest) =>
            answerKeys(request) * (1 + VALIDATION_MESSAGES_PER_KEY),
        },
      },
    };

    app.get('/profile', async (request) => applications.profile(ctx, request.user));

    app.post('/web-status', async (request, reply) => {
      await applications.addWebStatus(
        ctx,
        request.user,
        parse(webStatusBody, request.body).web_status,
      );
      return reply.status(204).send();
    });

    app.put('/last-page', async (request, reply) => {
      await applications.setLastPage(
        ctx,
        request.user,
        definition(request),
        parse(lastPageBody, request.body).last_page,
      );
      return reply.status(204).send();
    });

    app.put('/answer', answersLimits, async (request, reply) => {
      const saved = await applications.saveAnswers(
        ctx,
        request.user,
        definition(request),
        parse(answersBody, request.body),
        baseVersion(request.headers['if-match']),
      );
      void reply.header('etag', applications.versionTag(saved.version));
      return saved;
    });

    app.post('/validations', validationsLimits, async (request, reply) => {
      await applications.saveValidations(
        ctx,
        request.user,
        definition(request),
        parse(validationsBody, request.body),
      );
      return reply.status(204).send();
    });

    app.post('/submit', async (request) => {
      const submitted = await applications.submit(ctx, request.user, definition(request));
      await hooks
        .onSubmitted?.(request.user, request.tenant.definitionAt)
        .catch((error: unknown) => {
          request.log.error({ err: errorFields(error) }, 'after submit failed');
        });
      return submitted;
    });

    app.get('/add-another', async (request) => formState.getAddAnother(ctx, request.user));
    app.put('/add-another', async (request, reply) => {
      const body = parse(addAnotherBody, request.body);
      await formState.setAddAnother(
        ctx,
        request.user,
        definition(request),
        body.buttonId,
        body.count,
      );
      return reply.status(204).send();
    });

    app.get('/tabs', async (request) => formState.getTabs(ctx, request.user, definition(request)));
    app.put('/tabs', async (request, reply) => {
      const body = parse(tabsBody, request.body);
      await formState.setTab(ctx, request.user, definition(request), body.tabId, body.chosenTab);
      return reply.status(204).send();
    });

    const logout = async (request: FastifyRequest, reply: FastifyReply) => {
      await endSession(ctx, request.user.sessionHash);
      clearSessionCookies(reply, ctx.config);
      reply.header('Clear-Site-Data', CLEAR_SITE_DATA);
      return { message: serverMessages.loggedOut };
    };
    app.get('/logout', logout);
    app.post('/logout', logout);
    // D142: every session of the account, for a shared or lost computer; a POST only (a link or an
    // image must not end them).
    app.post('/logout/everywhere', async (request, reply) => {
      await endAllSessions(ctx, request.user.tenantId, request.user.userId);
      clearSessionCookies(reply, ctx.config);
      reply.header('Clear-Site-Data', '"cache", "cookies", "storage"');
      return { message: serverMessages.loggedOutEverywhere };
    });
  };
}

/** `If-Match: "7"` (also `7` or `W/"7"`): the answers' version the client last saw (REQ-R-2). */
function baseVersion(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!match) throw new HttpError(400, serverMessages.badIfMatch);
  return Number(match[1]);
}
