/**
 * The staff console's sign-in steps (docs/staff.md): the password, the authenticator's set-up, the
 * second factor and signing out. Behind the staff routes' gates (`staffAccess`, ./routes.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import { messageResponse, serverMessages } from '../../contract';
import {
  enrolmentResponse,
  recoveryCodesResponse,
  staffCodeBody,
  staffLoginBody,
  staffMeResponse,
  staffMessages,
  type StaffMe,
} from '../../contract/staff';
import { CLEAR_SITE_DATA } from '../cookies';
import type { HttpError } from '../errors';
import { parse } from '../http/parse';
import { described } from '../routeDescription';
import { staffCall, type RateLimited } from './routeDescription';
import { refusals, type SecurityEvent } from '../security/events';
import type { ApplicationPdfContext } from '../applicationPdf';
import * as accounts from './accounts';
import {
  clearStaffCookie,
  endStaffSession,
  setStaffCookie,
  staffOf,
  type StaffSession,
} from './sessions';

/** Which refusals of the sign-in steps are security events. */
function signInRefusal(error: HttpError): SecurityEvent | null {
  if (error.message === staffMessages.loginFailed || error.message === staffMessages.codeFailed)
    return 'auth.login_failed';
  if (error.message === serverMessages.loginStopped) return 'auth.hard_stop';
  return error.statusCode === 429 ? 'auth.lockout' : null;
}

export function signInRoutes(ctx: ApplicationPdfContext, limited: RateLimited): FastifyPluginAsync {
  return async (app) => {
    app.post(
      '/login',
      described(
        staffCall('Sign in (then the second factor)', {
          security: undefined,
          body: staffLoginBody,
          response: staffMeResponse,
        }),
        { config: { ...limited, staffAccess: 'anyone' } },
      ),
      async (request, reply) => {
        const body = parse(staffLoginBody, request.body);
        const { sessionId, me } = await accounts
          .staffLogin(ctx, request.tenant.id, body.email, body.password)
          .catch(refusals(request, signInRefusal, { address: body.email }));
        setStaffCookie(reply, ctx.config, sessionId);
        return me;
      },
    );

    function meOf(session: StaffSession): StaffMe {
      return {
        email: session.email,
        role: session.role,
        stage: session.verified ? 'signed-in' : session.enrolled ? 'verify' : 'enrol',
      };
    }

    app.get(
      '/me',
      described(
        staffCall('Who is signed in, and the sign-in stage', { response: staffMeResponse }),
        { config: { staffAccess: 'pending' } },
      ),
      async (request) => meOf(staffOf(request)),
    );

    app.get(
      '/enrolment',
      described(
        staffCall('Start setting up an authenticator app', { response: enrolmentResponse }),
        { config: { ...limited, staffAccess: 'pending' } },
      ),
      async (request) => accounts.startEnrolment(ctx, staffOf(request)),
    );

    app.post(
      '/enrolment',
      described(
        staffCall('Finish the set-up; answers recovery codes', {
          body: staffCodeBody,
          response: recoveryCodesResponse,
        }),
        { config: { ...limited, staffAccess: 'pending' } },
      ),
      async (request) => {
        const { code } = parse(staffCodeBody, request.body);
        const codes = await accounts
          .finishEnrolment(ctx, staffOf(request), code)
          .catch(refusals(request, signInRefusal, { account: staffOf(request).staffUserId }));
        return { recovery_codes: codes };
      },
    );

    app.post(
      '/verify',
      described(
        staffCall('The second factor', { body: staffCodeBody, response: staffMeResponse }),
        { config: { ...limited, staffAccess: 'pending' } },
      ),
      async (request) => {
        const { code } = parse(staffCodeBody, request.body);
        await accounts
          .verifySecondFactor(ctx, staffOf(request), code)
          .catch(refusals(request, signInRefusal, { account: staffOf(request).staffUserId }));
        return meOf({ ...staffOf(request), verified: true });
      },
    );

    app.post(
      '/logout',
      described(staffCall('Sign out', { response: messageResponse }), {
        config: { staffAccess: 'pending' },
      }),
      async (request, reply) => {
        await endStaffSession(ctx, staffOf(request).sessionHash);
        clearStaffCookie(reply, ctx.config);
        reply.header('Clear-Site-Data', CLEAR_SITE_DATA);
        return { message: staffMessages.signedOut };
      },
    );
  };
}
