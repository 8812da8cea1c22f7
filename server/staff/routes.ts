/**
 * `/staff/api/*`: the staff console's calls (docs/staff.md). Only the staff cookie opens
 * them, never an applicant's session. Three gates, checked before any body is read: a session whose
 * password was right opens only the second factor; a verified session opens the console; an admin's
 * opens administration and the export. Same CSP, headers and cross-site refusal as the rest (the
 * app's hooks); every answer is `no-store`.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { collegeDay, serverMessages } from '../../contract';
import {
  applicantParams,
  applicationQuery,
  auditQuery,
  exportQuery,
  documentParams,
  linkParams,
  linkQuery,
  staffCodeBody,
  staffIdParams,
  staffInviteBody,
  staffLoginBody,
  staffMessages,
  type StaffMe,
} from '../../contract/staff';
import { CLEAR_SITE_DATA } from '../cookies';
import { HttpError } from '../errors';
import { parse } from '../http/parse';
import { disposition } from '../http/attachment';
import { deletionRoutes } from './deletionRoutes';
import { exportRoutes } from './exportRoutes';
import { chosenColumns } from './exportColumns';
import { passwordRoutes } from './passwordRoutes';
import { refusals, securityEvent, type SecurityEvent } from '../security/events';
import type { ApplicationPdfContext } from '../applicationPdf';
import { cliKey } from '../serviceView';
import { sameSecret } from '../secrets';
import * as access from './applicationAccess';
import * as accounts from './accounts';
import { listApplications } from './applicationList';
import { audit } from '../db/auditTrail';
import { auditEntries, auditSearch, filterDetail } from './audit';
import { publishedVersions } from '../tenants';
import { exportApplications, exportFileName } from './exportCsv';
import { vaultOf } from '../crypto/answerVault';
import * as links from './serviceLinks';
import { FILE_CSP, FRAMABLE_FILE_CSP, FRAMABLE_FILE_FRAME_OPTIONS } from '../security/csp';
import {
  clearCarriedStaffCookie,
  clearStaffCookie,
  endStaffSession,
  resolveStaffSession,
  setStaffCookie,
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

/** Which refusals of the sign-in steps are security events. */
function signInRefusal(error: HttpError): SecurityEvent | null {
  if (error.message === staffMessages.loginFailed || error.message === staffMessages.codeFailed)
    return 'auth.login_failed';
  if (error.message === serverMessages.loginStopped) return 'auth.hard_stop';
  return error.statusCode === 429 ? 'auth.lockout' : null;
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
    const staffOf = (request: FastifyRequest) => request.staff as StaffSession;

    // --- Signing in ---------------------------------------------------------------------------

    app.post(
      '/login',
      { config: { ...limited, staffAccess: 'anyone' } },
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

    app.get('/me', { config: { staffAccess: 'pending' } }, async (request) =>
      meOf(staffOf(request)),
    );

    app.get('/enrolment', { config: { ...limited, staffAccess: 'pending' } }, async (request) =>
      accounts.startEnrolment(ctx, staffOf(request)),
    );

    app.post('/enrolment', { config: { ...limited, staffAccess: 'pending' } }, async (request) => {
      const { code } = parse(staffCodeBody, request.body);
      const codes = await accounts
        .finishEnrolment(ctx, staffOf(request), code)
        .catch(refusals(request, signInRefusal, { account: staffOf(request).staffUserId }));
      return { recovery_codes: codes };
    });

    app.post('/verify', { config: { ...limited, staffAccess: 'pending' } }, async (request) => {
      const { code } = parse(staffCodeBody, request.body);
      await accounts
        .verifySecondFactor(ctx, staffOf(request), code)
        .catch(refusals(request, signInRefusal, { account: staffOf(request).staffUserId }));
      return meOf({ ...staffOf(request), verified: true });
    });

    app.post('/logout', { config: { staffAccess: 'pending' } }, async (request, reply) => {
      await endStaffSession(ctx, staffOf(request).sessionHash);
      clearStaffCookie(reply, ctx.config);
      reply.header('Clear-Site-Data', CLEAR_SITE_DATA);
      return { message: staffMessages.signedOut };
    });

    await app.register(passwordRoutes(ctx, limited));

    /** `npm run staff -- add`: the command line's key (DATA_DIR/cli.key), for a running server. */
    app.post('/cli/staff', { config: { ...limited, staffAccess: 'anyone' } }, async (request) => {
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
    });

    // --- Administration (admins) ------------------------------------------------------------

    app.get('/staff', { config: { staffAccess: 'admin' } }, async (request) => ({
      staff: await accounts.listStaff(ctx, request.tenant.id),
    }));

    app.post('/invitations', { config: { ...limited, staffAccess: 'admin' } }, async (request) => {
      const body = parse(staffInviteBody, request.body);
      await accounts.inviteStaff(ctx, accounts.actorOf(staffOf(request)), body.email, body.role);
      return { message: staffMessages.invited };
    });

    app.post('/staff/:id/disable', { config: { staffAccess: 'admin' } }, async (request) => {
      const { id } = parse(staffIdParams, request.params);
      return { message: await accounts.disableStaff(ctx, staffOf(request), id) };
    });

    app.get('/audit', { config: { staffAccess: 'admin' } }, async (request) =>
      auditEntries(ctx, request.tenant, parse(auditQuery, request.query)),
    );

    app.get('/versions', { config: { staffAccess: 'admin' } }, async (request) => {
      const published = await publishedVersions(ctx.db, request.tenant.id);
      return {
        versions: published.reverse().map((row) => ({
          version: row.version,
          published_at: row.publishedAt.toISOString(),
          published_by: row.publishedBy,
          current: row.version === request.tenant.definitionVersion,
        })),
      };
    });

    // --- Applications -----------------------------------------------------------------------

    // A list shows names and addresses: it is a read, audited like the others.
    app.get('/applications', async (request) => {
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
    });

    app.get('/export.csv', { config: { staffAccess: 'admin' } }, async (request, reply) => {
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
    });

    const applicantFrom = async (request: FastifyRequest) => {
      const { id } = parse(applicantParams, request.params);
      return access.applicantOf(ctx, request.tenant.id, id);
    };

    app.get('/applications/:id', async (request) => {
      const applicant = await applicantFrom(request);
      const data = await access.readApplication(ctx, applicant, request.tenant);
      await audit(ctx, accounts.actorOf(staffOf(request)), 'application.read', applicant.userId);
      return data;
    });

    app.get('/applications/:id/pdf', async (request, reply) => {
      const applicant = await applicantFrom(request);
      const file = await access.readApplicationPdf(ctx, applicant, request.tenant);
      if (!file) return reply.status(202).send({ message: staffMessages.pdfPending });
      await audit(ctx, accounts.actorOf(staffOf(request)), 'application.pdf', applicant.userId);
      return sendPdf(reply, 'attachment', file);
    });

    app.get('/applications/:id/documents/:key', async (request, reply) => {
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
    });

    app.get('/applications/:id/links', async (request) => ({
      links: await links.listLinks(ctx, await applicantFrom(request)),
    }));

    app.post('/applications/:id/links', { config: limited }, async (request) => {
      const applicant = await applicantFrom(request);
      const minted = await links.mintLink(ctx, staffOf(request), applicant);
      await audit(ctx, accounts.actorOf(staffOf(request)), 'link.minted', applicant.userId);
      return minted;
    });

    app.delete(
      '/applications/:id/links/:tokenId',
      { config: { staffAccess: 'admin' } },
      async (request) => {
        const { id, tokenId } = parse(linkParams, request.params);
        const applicant = await access.applicantOf(ctx, request.tenant.id, id);
        if (await links.revokeLink(ctx, applicant, tokenId))
          await audit(ctx, accounts.actorOf(staffOf(request)), 'link.revoked', applicant.userId);
        return { message: staffMessages.linkRevoked };
      },
    );

    // Every link that is out, with the applicant's name and address: a read, audited as the list.
    app.get('/links', { config: { staffAccess: 'admin' } }, async (request) => {
      const page = await links.listAllLinks(
        ctx,
        request.tenant.id,
        parse(linkQuery, request.query),
      );
      await audit(ctx, accounts.actorOf(staffOf(request)), 'link.list');
      return page;
    });

    await app.register(deletionRoutes(ctx));
    await app.register(exportRoutes(ctx));
  };
}
