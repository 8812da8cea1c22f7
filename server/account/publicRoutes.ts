/**
 * The account calls (SPEC 7.2, /public/*), rate-limited per client address; the temporary answers
 * beside them are the application's (server/application/tmpAnswersRoutes.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import {
  confirmBody,
  forgotBody,
  loginBody,
  messageResponse,
  resendBody,
  resetBody,
  serverMessages,
  signupBody,
} from '../../contract';
import { setSessionCookies } from '../cookies';
import type { HttpError } from '../errors';
import { refusals, type SecurityEvent } from '../security/events';
import * as accounts from './accounts';
import { forgotPassword, resendCode, signup } from './accountRequests';
import type { ServiceContext } from '../http/context';
import { parse } from '../http/parse';
import { described, type RouteDescription } from '../routeDescription';

/** An account call: its body, answered with a message. */
const accountCall = (summary: string, body: RouteDescription['body']): RouteDescription => ({
  tag: 'accounts',
  summary,
  body,
  response: messageResponse,
});

/** Which login refusals are security events: failures, the lockout and the hard stop. */
function loginRefusal(error: HttpError): SecurityEvent | null {
  if (error.message === serverMessages.loginFailed) return 'auth.login_failed';
  if (error.message === serverMessages.loginStopped) return 'auth.hard_stop';
  return error.statusCode === 429 ? 'auth.lockout' : null;
}

export function publicRoutes(ctx: ServiceContext): FastifyPluginAsync {
  return async (app) => {
    const limited = {
      config: { rateLimit: { max: ctx.config.publicRateLimit, timeWindow: '1 minute' } },
    };

    app.post(
      '/signup',
      described(
        accountCall('Create an account; a confirmation code is mailed', signupBody),
        limited,
      ),
      async (request) => ({
        message: await signup(ctx, request.tenant.id, parse(signupBody, request.body)),
      }),
    );

    app.post(
      '/confirm',
      described(accountCall('Confirm an account with the mailed code', confirmBody), limited),
      async (request) => {
        const body = parse(confirmBody, request.body);
        const refused = (error: HttpError) =>
          error.message === serverMessages.confirmFailed ? 'auth.confirm_failed' : null;
        return {
          message: await accounts
            .confirm(ctx, request.tenant.id, body)
            .catch(refusals(request, refused, { address: body.username })),
        };
      },
    );

    app.post(
      '/resend-confirm',
      described(accountCall('Mail a new confirmation code', resendBody), limited),
      async (request) => ({
        message: await resendCode(ctx, request.tenant.id, parse(resendBody, request.body).username),
      }),
    );

    app.post(
      '/login',
      described(accountCall('Log in; sets the session cookie', loginBody), limited),
      async (request, reply) => {
        const body = parse(loginBody, request.body);
        const result = await accounts
          .login(ctx, request.tenant.id, body)
          .catch(refusals(request, loginRefusal, { address: body.username }));
        setSessionCookies(reply, ctx.config, result.sessionId);
        request.log.info({ tenant: request.tenant.id, user: result.userId }, 'login');
        return { message: serverMessages.loggedIn };
      },
    );

    app.post(
      '/forgot-password',
      described(accountCall('Mail a password reset link', forgotBody), limited),
      async (request) => ({
        message: await forgotPassword(
          ctx,
          request.tenant.id,
          parse(forgotBody, request.body).username,
        ),
      }),
    );

    app.post(
      '/reset-password',
      described(accountCall('Set a new password with a reset link', resetBody), limited),
      async (request) => {
        const body = parse(resetBody, request.body);
        const refused = (error: HttpError) =>
          error.message === serverMessages.resetFailed ? 'token.reset_refused' : null;
        return {
          message: await accounts
            .resetPassword(ctx, request.tenant.id, body)
            .catch(refusals(request, refused, { address: body.username })),
        };
      },
    );
  };
}
