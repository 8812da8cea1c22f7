/** The logged-in applicant's calls (SPEC 7.2, /api/*). Any call without a live session answers 401. */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  addAnotherBody,
  answersBody,
  lastPageBody,
  serverMessages,
  tabsBody,
  validationsBody,
  webStatusBody,
} from '../../contract';
import { clearSessionCookies } from '../cookies';
import { HttpError } from '../errors';
import * as applications from '../services/applications';
import type { Definition } from '../../runtime';
import type { ServiceContext } from '../services/context';
import { endSession, type SessionUser } from '../services/sessions';
import { parse } from './parse';
import { requireApplicant } from './session';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser;
  }
}

export interface ApiHooks {
  /** After a submit that went through (also a repeated one): errors are logged, never answered. */
  readonly onSubmitted?: (user: SessionUser, definition: Definition) => Promise<unknown>;
}

export function apiRoutes(ctx: ServiceContext, hooks: ApiHooks = {}): FastifyPluginAsync {
  return async (app) => {
    app.decorateRequest('user', null as unknown as SessionUser);
    app.addHook('preHandler', async (request, reply) => {
      request.user = await requireApplicant(ctx, request, reply);
    });
    const definition = (request: FastifyRequest) => request.tenant.definition;

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

    app.put('/answer', async (request, reply) => {
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

    app.post('/validations', async (request, reply) => {
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
      await hooks.onSubmitted?.(request.user, definition(request)).catch((error: unknown) => {
        request.log.error({ err: { message: (error as Error).message } }, 'after submit failed');
      });
      return submitted;
    });

    app.get('/add-another', async (request) => applications.getAddAnother(ctx, request.user));
    app.put('/add-another', async (request, reply) => {
      const body = parse(addAnotherBody, request.body);
      await applications.setAddAnother(
        ctx,
        request.user,
        definition(request),
        body.buttonId,
        body.count,
      );
      return reply.status(204).send();
    });

    app.get('/tabs', async (request) =>
      applications.getTabs(ctx, request.user, definition(request)),
    );
    app.put('/tabs', async (request, reply) => {
      const body = parse(tabsBody, request.body);
      await applications.setTab(ctx, request.user, definition(request), body.tabId, body.chosenTab);
      return reply.status(204).send();
    });

    const logout = async (request: FastifyRequest, reply: FastifyReply) => {
      await endSession(ctx, request.user.sessionHash);
      clearSessionCookies(reply, ctx.config);
      reply.header('Clear-Site-Data', '"cache", "cookies", "storage"');
      return { message: serverMessages.loggedOut };
    };
    app.get('/logout', logout);
    app.post('/logout', logout);
  };
}

/** `If-Match: "7"` (also `7` or `W/"7"`): the answers' version the client last saw (REQ-R-2). */
function baseVersion(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!match) throw new HttpError(400, serverMessages.badIfMatch);
  return Number(match[1]);
}
