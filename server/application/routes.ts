/** The logged-in applicant's calls (SPEC 7.2, /api/*). Any call without a live session answers 401. */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  addAnotherBody,
  addAnotherResponse,
  answersBody,
  lastPageBody,
  messageResponse,
  profileResponse,
  saveAnswersResponse,
  serverMessages,
  tabsBody,
  tabsResponse,
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
import { described, type RouteDescription } from '../routeDescription';
import { errorFields } from '../security/logFields';

export interface ApiHooks {
  /** After a submit that went through (also a repeated one): errors are logged, never answered. */
  readonly onSubmitted?: (user: SessionUser, definitions: DefinitionAt) => Promise<unknown>;
}

/** A call of the logged-in applicant. */
const call = (
  summary: string,
  rest: Omit<RouteDescription, 'tag' | 'summary' | 'security'> = {},
): RouteDescription => ({ tag: 'application', summary, security: 'session', ...rest });

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

    app.get(
      '/profile',
      described(call('The answers, statuses and last page', { response: profileResponse })),
      async (request) => applications.profile(ctx, request.user),
    );

    app.post(
      '/web-status',
      described(call('Record a web status', { body: webStatusBody, status: 204 })),
      async (request, reply) => {
        await applications.addWebStatus(
          ctx,
          request.user,
          parse(webStatusBody, request.body).web_status,
        );
        return reply.status(204).send();
      },
    );

    app.put(
      '/last-page',
      described(call('Record the last page visited', { body: lastPageBody, status: 204 })),
      async (request, reply) => {
        await applications.setLastPage(
          ctx,
          request.user,
          definition(request),
          parse(lastPageBody, request.body).last_page,
        );
        return reply.status(204).send();
      },
    );

    const save = call('Save answers (If-Match: the version last seen)', {
      body: answersBody,
      response: saveAnswersResponse,
    });
    app.put('/answer', described(save, answersLimits), async (request, reply) => {
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

    app.post(
      '/validations',
      described(
        call('Record the messages shown per key', { body: validationsBody, status: 204 }),
        validationsLimits,
      ),
      async (request, reply) => {
        await applications.saveValidations(
          ctx,
          request.user,
          definition(request),
          parse(validationsBody, request.body),
        );
        return reply.status(204).send();
      },
    );

    const submit = call('Submit the application (422 with the errors per key)', {
      response: messageResponse,
    });
    app.post('/submit', described(submit), async (request) => {
      const submitted = await applications.submit(ctx, request.user, definition(request));
      await hooks
        .onSubmitted?.(request.user, request.tenant.definitionAt)
        .catch((error: unknown) => {
          request.log.error({ err: errorFields(error) }, 'after submit failed');
        });
      return submitted;
    });

    app.get(
      '/add-another',
      described(call('Instances shown per add-another button', { response: addAnotherResponse })),
      async (request) => formState.getAddAnother(ctx, request.user),
    );
    app.put(
      '/add-another',
      described(
        call('Set the instances of an add-another button', { body: addAnotherBody, status: 204 }),
      ),
      async (request, reply) => {
        const body = parse(addAnotherBody, request.body);
        await formState.setAddAnother(
          ctx,
          request.user,
          definition(request),
          body.buttonId,
          body.count,
        );
        return reply.status(204).send();
      },
    );

    app.get(
      '/tabs',
      described(call('The chosen tab of each tab group', { response: tabsResponse })),
      async (request) => formState.getTabs(ctx, request.user, definition(request)),
    );
    app.put(
      '/tabs',
      described(call('Choose a tab', { body: tabsBody, status: 204 })),
      async (request, reply) => {
        const body = parse(tabsBody, request.body);
        await formState.setTab(ctx, request.user, definition(request), body.tabId, body.chosenTab);
        return reply.status(204).send();
      },
    );

    const logout = async (request: FastifyRequest, reply: FastifyReply) => {
      await endSession(ctx, request.user.sessionHash);
      clearSessionCookies(reply, ctx.config);
      reply.header('Clear-Site-Data', CLEAR_SITE_DATA);
      return { message: serverMessages.loggedOut };
    };
    const loggedOut = { response: messageResponse };
    app.get('/logout', described(call('Log out', loggedOut)), logout);
    app.post('/logout', described(call('Log out', loggedOut)), logout);
    // D142: every session of the account, for a shared or lost computer; a POST only (a link or an
    // image must not end them).
    app.post(
      '/logout/everywhere',
      described(call('Log out of every session', { response: messageResponse })),
      async (request, reply) => {
        await endAllSessions(ctx, request.user.tenantId, request.user.userId);
        clearSessionCookies(reply, ctx.config);
        reply.header('Clear-Site-Data', '"cache", "cookies", "storage"');
        return { message: serverMessages.loggedOutEverywhere };
      },
    );
  };
}

/** `If-Match: "7"` (also `7` or `W/"7"`): the answers' version the client last saw (REQ-R-2). */
function baseVersion(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!match) throw new HttpError(400, serverMessages.badIfMatch);
  return Number(match[1]);
}
