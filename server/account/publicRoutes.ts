/** The account calls and temporary answers (SPEC 7.2, /public/*), rate-limited per client address. */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  confirmBody,
  forgotBody,
  loginBody,
  resendBody,
  resetBody,
  serverMessages,
  signupBody,
  tmpAnswersBody,
} from '../../contract';
import { dataModelKeys } from '../../runtime';
import { setSessionCookies } from '../cookies';
import type { HttpError } from '../errors';
import { refusals, type SecurityEvent } from '../security/events';
import { ANSWERS_BODY_BYTES } from '../security/jsonBody';
import * as accounts from './accounts';
import { forgotPassword, resendCode, signup } from './accountRequests';
import { readTmpAnswers, storeTmpAnswers } from '../application';
import type { ServiceContext } from '../http/context';
import { parse } from '../http/parse';

/** GET /public/tmp?token=: the temporary answers' token. */
export const tmpTokenQuery = z.object({ token: z.string().min(16).max(200) });

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

    app.post('/signup', limited, async (request) => ({
      message: await signup(ctx, request.tenant.id, parse(signupBody, request.body)),
    }));

    app.post('/confirm', limited, async (request) => {
      const body = parse(confirmBody, request.body);
      const refused = (error: HttpError) =>
        error.message === serverMessages.confirmFailed ? 'auth.confirm_failed' : null;
      return {
        message: await accounts
          .confirm(ctx, request.tenant.id, body)
          .catch(refusals(request, refused, { address: body.username })),
      };
    });

    app.post('/resend-confirm', limited, async (request) => ({
      message: await resendCode(ctx, request.tenant.id, parse(resendBody, request.body).username),
    }));

    app.post('/login', limited, async (request, reply) => {
      const body = parse(loginBody, request.body);
      const result = await accounts
        .login(ctx, request.tenant.id, body)
        .catch(refusals(request, loginRefusal, { address: body.username }));
      setSessionCookies(reply, ctx.config, result.sessionId);
      request.log.info({ tenant: request.tenant.id, user: result.userId }, 'login');
      return { message: serverMessages.loggedIn };
    });

    app.post('/forgot-password', limited, async (request) => ({
      message: await forgotPassword(
        ctx,
        request.tenant.id,
        parse(forgotBody, request.body).username,
      ),
    }));

    app.post('/reset-password', limited, async (request) => {
      const body = parse(resetBody, request.body);
      const refused = (error: HttpError) =>
        error.message === serverMessages.resetFailed ? 'token.reset_refused' : null;
      return {
        message: await accounts
          .resetPassword(ctx, request.tenant.id, body)
          .catch(refusals(request, refused, { address: body.username })),
      };
    });

    // { answers }: the answers' limits one level down.
    const tmpLimits = {
      bodyLimit: ANSWERS_BODY_BYTES,
      config: {
        ...limited.config,
        json: {
          depth: 3,
          members: (request: FastifyRequest) => dataModelKeys(request.tenant.definition).length + 1,
        },
      },
    };
    app.post('/tmp', tmpLimits, async (request) =>
      storeTmpAnswers(
        ctx,
        request.tenant.id,
        request.tenant.definition,
        parse(tmpAnswersBody, request.body).answers,
      ),
    );

    app.get('/tmp', limited, async (request, reply) => {
      reply.header('X-Robots-Tag', 'noindex');
      const refused = (error: HttpError) =>
        error.message === serverMessages.tmpExpired ? 'token.tmp_refused' : null;
      return readTmpAnswers(
        ctx,
        request.tenant.id,
        request.tenant.definition,
        parse(tmpTokenQuery, request.query).token,
      ).catch(refusals(request, refused));
    });
  };
}
