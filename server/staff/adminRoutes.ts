/**
 * The staff console's administration (docs/staff.md): the staff, invitations (also from the command
 * line's key), the audit log and the form's versions. Behind the staff routes' gates (./routes.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod/mini';
import { messageResponse } from '../../contract';
import {
  auditPage,
  auditQuery,
  formVersions,
  staffIdParams,
  staffInviteBody,
  staffList,
  staffMessages,
} from '../../contract/staff';
import { HttpError } from '../errors';
import { parse } from '../http/parse';
import { described } from '../routeDescription';
import { staffCall, type RateLimited } from './routeDescription';
import { securityEvent } from '../security/events';
import type { ApplicationPdfContext } from '../applicationPdf';
import { cliKey } from '../serviceView';
import { sameSecret } from '../secrets';
import * as accounts from './accounts';
import { auditEntries } from './audit';
import { publishedVersions } from '../tenants';
import { staffOf } from './sessions';

export function adminRoutes(ctx: ApplicationPdfContext, limited: RateLimited): FastifyPluginAsync {
  return async (app) => {
    /** `npm run staff -- add`: the command line's key (DATA_DIR/cli.key), for a running server. */
    app.post(
      '/cli/staff',
      described(
        staffCall('Invite staff from the command line (its key)', {
          security: 'staffKey',
          body: staffInviteBody,
          response: z.object({ link: z.string() }),
        }),
        { config: { ...limited, staffAccess: 'anyone' } },
      ),
      async (request) => {
        const presented = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
        if (!presented || !sameSecret(presented, cliKey(ctx.config))) {
          securityEvent(request, 'auth.staff_key_refused');
          throw new HttpError(401, staffMessages.signInRequired);
        }
        const body = parse(staffInviteBody, request.body);
        const { link } = await accounts.inviteStaff(
          ctx,
          { tenantId: request.tenant.id, staffUserId: null, name: 'cli' },
          body.email,
          body.role,
        );
        return { link };
      },
    );

    app.get(
      '/staff',
      described(staffCall('The staff (admins)', { response: staffList }), {
        config: { staffAccess: 'admin' },
      }),
      async (request) => ({
        staff: await accounts.listStaff(ctx, request.tenant.id),
      }),
    );

    app.post(
      '/invitations',
      described(
        staffCall('Invite a staff member (admins)', {
          body: staffInviteBody,
          response: messageResponse,
        }),
        { config: { ...limited, staffAccess: 'admin' } },
      ),
      async (request) => {
        const body = parse(staffInviteBody, request.body);
        await accounts.inviteStaff(ctx, accounts.actorOf(staffOf(request)), body.email, body.role);
        return { message: staffMessages.invited };
      },
    );

    app.post(
      '/staff/:id/disable',
      described(
        staffCall('Disable a staff member (admins)', {
          params: staffIdParams,
          response: messageResponse,
        }),
        { config: { staffAccess: 'admin' } },
      ),
      async (request) => {
        const { id } = parse(staffIdParams, request.params);
        return { message: await accounts.disableStaff(ctx, staffOf(request), id) };
      },
    );

    app.get(
      '/audit',
      described(
        staffCall('The audit log, filtered and paged (admins)', {
          query: auditQuery,
          response: auditPage,
        }),
        { config: { staffAccess: 'admin' } },
      ),
      async (request) => auditEntries(ctx, request.tenant, parse(auditQuery, request.query)),
    );

    app.get(
      '/versions',
      described(
        staffCall('The published versions of the form (admins)', { response: formVersions }),
        { config: { staffAccess: 'admin' } },
      ),
      async (request) => {
        const published = await publishedVersions(ctx.db, request.tenant.id);
        return {
          versions: published.reverse().map((row) => ({
            version: row.version,
            published_at: row.publishedAt.toISOString(),
            published_by: row.publishedBy,
            current: row.version === request.tenant.definitionVersion,
          })),
        };
      },
    );
  };
}
