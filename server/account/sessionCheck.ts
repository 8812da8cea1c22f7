/**
 * The applicant of a request: every /api call needs a live session. Without one the session cookies
 * it carried are cleared and the call answers 401 with SPEC 8's session-invalid message. The check runs on
 * request, before the body is read, so an anonymous body costs nothing to refuse (D72).
 */
import type { FastifyInstance } from 'fastify';
import { serverMessages } from '../../contract';
import { clearCarriedSessionCookies, sessionCookie } from '../cookies';
import { HttpError } from '../errors';
import type { ServiceContext } from '../http/context';
import { resolveSession, type SessionUser } from './sessions';

declare module 'fastify' {
  interface FastifyRequest {
    /** The applicant of an /api call (set before the body is read). */
    user: SessionUser;
  }
}

export function registerSessionCheck(app: FastifyInstance, ctx: ServiceContext): void {
  app.decorateRequest('user', null as unknown as SessionUser);
  app.addHook('onRequest', async (request, reply) => {
    const user = await resolveSession(ctx, request.tenant.id, sessionCookie(request, ctx.config));
    if (!user) {
      clearCarriedSessionCookies(request, reply, ctx.config);
      throw new HttpError(401, serverMessages.sessionRequired);
    }
    request.user = user;
  });
}
