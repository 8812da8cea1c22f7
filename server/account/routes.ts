/**
 * The applicant's rights over their data (D152): DELETE /api/account ("Delete my account", the
 * password typed again) and GET /api/account/export ("Download my data"), rate-limited like the
 * account calls. Behind the session check of every /api call.
 */
import type { FastifyPluginAsync } from 'fastify';
import { deleteAccountBody, deleteAccountResponse } from '../../contract';
import { CLEAR_SITE_DATA, clearSessionCookies } from '../cookies';
import { deleteOwnAccount, type DeletionContext } from './accountDeletion';
import { exportAccount, type QuestionColumns } from './accountExport';
import { attachment } from '../http/attachment';
import { parse } from '../http/parse';
import { described } from '../routeDescription';

export function accountRoutes(
  ctx: DeletionContext,
  answerColumns: QuestionColumns,
): FastifyPluginAsync {
  return async (app) => {
    const limited = {
      config: { rateLimit: { max: ctx.config.publicRateLimit, timeWindow: '1 minute' } },
    };

    const deletion = described(
      {
        tag: 'application',
        summary: 'Delete my account (after submission: request it)',
        security: 'session',
        body: deleteAccountBody,
        response: deleteAccountResponse,
      },
      limited,
    );
    app.delete('/account', deletion, async (request, reply) => {
      const { password } = parse(deleteAccountBody, request.body);
      const done = await deleteOwnAccount(ctx, request.user, password);
      if (done.outcome === 'deleted') {
        clearSessionCookies(reply, ctx.config);
        reply.header('Clear-Site-Data', CLEAR_SITE_DATA);
      }
      return done;
    });

    const download = described(
      {
        tag: 'application',
        summary: 'Download my data: a ZIP of all held about me',
        security: 'session',
        response: 'zip',
      },
      limited,
    );
    app.get('/account/export', download, async (request, reply) => {
      const { fileName, zip } = await exportAccount(
        ctx,
        request.user,
        request.tenant.definitionAt,
        answerColumns,
      );
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', attachment(fileName))
        .header('Cache-Control', 'no-store')
        .send(Buffer.from(zip));
    });
  };
}
