/**
 * The applicant of a request: every /api call needs a live session. Without one the session cookies
 * are cleared and the call answers 401 with SPEC 8's session-invalid message.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { serverMessages } from '../../contract';
import { clearSessionCookies, sessionCookie } from '../cookies';
import { HttpError } from '../errors';
import type { ServiceContext } from '../services/context';
import { resolveSession, type SessionUser } from '../services/sessions';

export async function requireApplicant(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<SessionUser> {
  const user = await resolveSession(ctx, request.tenant.id, sessionCookie(request, ctx.config));
  if (!user) {
    clearSessionCookies(reply, ctx.config);
    throw new HttpError(401, serverMessages.sessionRequired);
  }
  return user;
}
