/**
 * The staff password links' calls (D157, D166), open without a session: what an invitation is for,
 * taking it up, "Forgot password?" and the reset link. Their tokens come in bodies, never in URLs.
 */
import type { FastifyPluginAsync } from 'fastify';
import { messageResponse } from '../../contract';
import { staffMessages } from '../../contract/staff';
import {
  staffForgotBody,
  staffInvitationBody,
  staffInvitationResponse,
  staffJoinBody,
  staffPasswordMessages,
  staffResetBody,
} from '../../contract/staffPassword';
import type { HttpError } from '../errors';
import { parse } from '../http/parse';
import { described } from '../routeDescription';
import { staffCall, type RateLimited } from './routeDescription';
import { refusals } from '../security/events';
import type { ServiceContext } from '../http/context';
import { joinStaff } from './accounts';
import { forgotStaffPassword, invitationOf, resetStaffPassword } from './passwordLinks';

/** A refused link is a security event (someone may be trying links). */
const linkRefused = (error: HttpError) =>
  error.message === staffMessages.invitationInvalid ||
  error.message === staffPasswordMessages.resetFailed
    ? 'token.reset_refused'
    : null;

export function passwordRoutes(ctx: ServiceContext, limited: RateLimited): FastifyPluginAsync {
  return async (app) => {
    const open = { config: { ...limited, staffAccess: 'anyone' as const } };

    app.post(
      '/invitation',
      described(
        staffCall('Who an invitation is for: its address and role', {
          security: undefined,
          body: staffInvitationBody,
          response: staffInvitationResponse,
        }),
        open,
      ),
      async (request) => {
        const { token } = parse(staffInvitationBody, request.body);
        return invitationOf(ctx, request.tenant.id, token).catch(refusals(request, linkRefused));
      },
    );

    app.post(
      '/join',
      described(
        staffCall('Accept an invitation: set a password', {
          security: undefined,
          body: staffJoinBody,
          response: messageResponse,
        }),
        open,
      ),
      async (request) => {
        const body = parse(staffJoinBody, request.body);
        return {
          message: await joinStaff(ctx, request.tenant.id, body.token, body.password).catch(
            refusals(request, linkRefused),
          ),
        };
      },
    );

    app.post(
      '/forgot-password',
      described(
        staffCall('Mail a reset link (the same answer for any address)', {
          security: undefined,
          body: staffForgotBody,
          response: messageResponse,
        }),
        open,
      ),
      async (request) => ({
        message: await forgotStaffPassword(
          ctx,
          request.tenant.id,
          parse(staffForgotBody, request.body).email,
        ),
      }),
    );

    app.post(
      '/reset-password',
      described(
        staffCall('Set a new password with a reset link (the second factor stays)', {
          security: undefined,
          body: staffResetBody,
          response: messageResponse,
        }),
        open,
      ),
      async (request) => {
        const body = parse(staffResetBody, request.body);
        return {
          message: await resetStaffPassword(
            ctx,
            request.tenant.id,
            body.token,
            body.password,
          ).catch(refusals(request, linkRefused)),
        };
      },
    );
  };
}
