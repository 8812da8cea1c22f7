/**
 * `/staff/api/*`: the staff console's calls (docs/staff.md). Only the staff cookie opens
 * them, never an applicant's session. Three gates, checked before any body is read: a session whose
 * password was right opens only the second factor; a verified session opens the console; an admin's
 * opens administration and the export. Same CSP, headers and cross-site refusal as the rest (the
 * app's hooks); every answer is `no-store`.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { collegeDay, messageResponse } from '../../contract';
import {
  applicantParams,
  applicationPage,
  applicationQuery,
  exportQuery,
  documentParams,
  linkPage,
  linkParams,
  linkQuery,
  mintedLink,
  serviceLinkList,
  staffApplication,
  staffMessages,
} from '../../contract/staff';
import { HttpError } from '../errors';
import { parse } from '../http/parse';
import { described } from '../routeDescription';
import { staffCall } from './routeDescription';
import { disposition } from '../http/attachment';
import { deletionRoutes } from './deletionRoutes';
import { exportRoutes } from './exportRoutes';
import { chosenColumns } from './exportColumns';
import { passwordRoutes } from './passwordRoutes';
import { signInRoutes } from './signInRoutes';
import { adminRoutes } from './adminRoutes';
import { securityEvent } from '../security/events';
import type { ApplicationPdfContext } from '../applicationPdf';
import * as access from './applicationAccess';
import * as accounts from './accounts';
import { listApplications } from './applicationList';
import { audit } from '../db/auditTrail';
import { auditSearch, filterDetail } from './audit';
import { exportApplications, exportFileName } from './exportCsv';
import { vaultOf } from '../crypto/answerVault';
import * as links from './serviceLinks';
import { FILE_CSP, FRAMABLE_FILE_CSP, FRAMABLE_FILE_FRAME_OPTIONS } from '../security/csp';
import {
  clearCarriedStaffCookie,
  resolveStaffSession,
  staffOf,
  type StaffSession,
} from './sessions';

declare module 'fastify' {
  interface FastifyRequest {
    staff: StaffSession | null;
  }
  interface FastifyContextConfig {
    /** Who may call a /staff/api route (default: a verified staff session). */
    staffAccess?: 'anyone' | 'pending' | 'staff' | 'admin';
  }
}

function sendPdf(
  reply: FastifyReply,
  kind: 'inline' | 'attachment',
  file: { bytes: Buffer; fileName: string },
  csp = FILE_CSP,
) {
  return reply
    .header('Content-Type', 'application/pdf')
    .header('Content-Disposition', disposition(kind, file.fileName))
    .header('Content-Security-Policy', csp)
    .send(file.bytes);
}

/** A converted document, shown inline and framed by the console's own document viewer (D174). */
function sendFramableDocument(reply: FastifyReply, file: { bytes: Buffer; fileName: string }) {
  reply.header('X-Frame-Options', FRAMABLE_FILE_FRAME_OPTIONS);
  return sendPdf(reply, 'inline', file, FRAMABLE_FILE_CSP);
}

export function staffRoutes(ctx: ApplicationPdfContext): FastifyPluginAsync {
  return async (app) => {
    const limited = { rateLimit: { max: ctx.config.publicRateLimit, timeWindow: '1 minute' } };

    app.decorateRequest('staff', null);
    app.addHook('onRequest', async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      reply.header('X-Robots-Tag', 'noindex');
      const needed = request.routeOptions.config.staffAccess ?? 'staff';
      if (needed === 'anyone') return;
      const session = await resolveStaffSession(ctx, request);
      if (!session) {
        clearCarriedStaffCookie(request, reply, ctx.config);
        throw new HttpError(401, staffMessages.signInRequired);
      }
      request.staff = session;
      if (needed === 'pending') return;
      if (!session.verified) throw new HttpError(401, staffMessages.secondFactorRequired);
      if (needed === 'admin' && session.role !== 'admin') {
        securityEvent(request, 'staff.role_refused', { account: session.staffUserId });
        throw new HttpError(403, staffMessages.forbidden);
      }
    });

    await app.register(signInRoutes(ctx, limited));
    await app.register(passwordRoutes(ctx, limited));
    await app.register(adminRoutes(ctx, limited));

    // --- Applications -----------------------------------------------------------------------

    // A list shows names and addresses: it is a read, audited like the others.
    app.get(
      '/applications',
      described(
        staffCall('The applications, searched, filtered and paged', {
          query: applicationQuery,
          response: applicationPage,
        }),
      ),
      async (request) => {
        const query = parse(applicationQuery, request.query);
        const page = await listApplications(
          ctx.db,
          request.tenant.id,
          query,
          ctx.institutionOf(request.tenant.id).time_zone,
        );
        const actor = accounts.actorOf(staffOf(request));
        if (query.q?.trim()) await auditSearch(ctx, actor, filterDetail(query));
        else await audit(ctx, actor, 'application.list', null, filterDetail(query));
        return page;
      },
    );

    app.get(
      '/export.csv',
      described(
        staffCall('The applications as CSV (admins)', { query: exportQuery, response: 'csv' }),
        { config: { staffAccess: 'admin' } },
      ),
      async (request, reply) => {
        const {
          after: _after,
          before: _before,
          last: _last,
          size: _size,
          codes,
          ...filter
        } = parse(exportQuery, request.query);
        await audit(
          ctx,
          accounts.actorOf(staffOf(request)),
          'application.export',
          null,
          filterDetail(filter),
        );
        return reply
          .header('Content-Type', 'text/csv; charset=utf-8')
          .header(
            'Content-Disposition',
            disposition(
              'attachment',
              exportFileName(
                request.tenant.id,
                filter,
                collegeDay(ctx.config.now(), ctx.institutionOf(request.tenant.id).time_zone),
              ),
            ),
          )
          .send(
            exportApplications(ctx.db, vaultOf(ctx), request.tenant.id, request.tenant, filter, {
              codes: codes === '1',
              chosen: await chosenColumns(ctx, request.tenant.id),
              timeZone: ctx.institutionOf(request.tenant.id).time_zone,
            }),
          );
      },
    );

    const applicantFrom = async (request: FastifyRequest) => {
      const { id } = parse(applicantParams, request.params);
      return access.applicantOf(ctx, request.tenant.id, id);
    };

    app.get(
      '/applications/:id',
      described(
        staffCall('One application', { params: applicantParams, response: staffApplication }),
      ),
      async (request) => {
        const applicant = await applicantFrom(request);
        const data = await access.readApplication(ctx, applicant, request.tenant);
        await audit(ctx, accounts.actorOf(staffOf(request)), 'application.read', applicant.userId);
        return data;
      },
    );

    app.get(
      '/applications/:id/pdf',
      described(
        staffCall('The application PDF (202 while prepared)', {
          params: applicantParams,
          response: 'pdf',
        }),
      ),
      async (request, reply) => {
        const applicant = await applicantFrom(request);
        const file = await access.readApplicationPdf(ctx, applicant, request.tenant);
        if (!file) return reply.status(202).send({ message: staffMessages.pdfPending });
        await audit(ctx, accounts.actorOf(staffOf(request)), 'application.pdf', applicant.userId);
        return sendPdf(reply, 'attachment', file);
      },
    );

    app.get(
      '/applications/:id/documents/:key',
      described(staffCall('A converted document', { params: documentParams, response: 'pdf' })),
      async (request, reply) => {
        const { id, key } = parse(documentParams, request.params);
        const applicant = await access.applicantOf(ctx, request.tenant.id, id);
        const file = await access.readDocument(ctx, applicant, key);
        await audit(
          ctx,
          accounts.actorOf(staffOf(request)),
          'application.document',
          applicant.userId,
          key,
        );
        return sendFramableDocument(reply, file);
      },
    );

    app.get(
      '/applications/:id/links',
      described(
        staffCall('An application’s service links', {
          params: applicantParams,
          response: serviceLinkList,
        }),
      ),
      async (request) => ({
        links: await links.listLinks(ctx, await applicantFrom(request)),
      }),
    );

    app.post(
      '/applications/:id/links',
      described(
        staffCall('Mint a service link', { params: applicantParams, response: mintedLink }),
        { config: limited },
      ),
      async (request) => {
        const applicant = await applicantFrom(request);
        const minted = await links.mintLink(ctx, staffOf(request), applicant);
        await audit(ctx, accounts.actorOf(staffOf(request)), 'link.minted', applicant.userId);
        return minted;
      },
    );

    app.delete(
      '/applications/:id/links/:tokenId',
      described(
        staffCall('Revoke a link (admins)', { params: linkParams, response: messageResponse }),
        { config: { staffAccess: 'admin' } },
      ),
      async (request) => {
        const { id, tokenId } = parse(linkParams, request.params);
        const applicant = await access.applicantOf(ctx, request.tenant.id, id);
        if (await links.revokeLink(ctx, applicant, tokenId))
          await audit(ctx, accounts.actorOf(staffOf(request)), 'link.revoked', applicant.userId);
        return { message: staffMessages.linkRevoked };
      },
    );

    // Every link that is out, with the applicant's name and address: a read, audited as the list.
    app.get(
      '/links',
      described(
        staffCall('Every service link, paged (admins)', { query: linkQuery, response: linkPage }),
        { config: { staffAccess: 'admin' } },
      ),
      async (request) => {
        const page = await links.listAllLinks(
          ctx,
          request.tenant.id,
          parse(linkQuery, request.query),
        );
        await audit(ctx, accounts.actorOf(staffOf(request)), 'link.list');
        return page;
      },
    );

    await app.register(deletionRoutes(ctx));
    await app.register(exportRoutes(ctx));
  };
}
