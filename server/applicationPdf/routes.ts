/**
 * The application PDF (SPEC 7.2 `GET /api/pdf`) and its download. Both need a live session (401
 * otherwise); the download also needs the short-lived grant `GET /api/pdf` hands out, so a URL that
 * leaks (history, a shared screen) is useless to anyone else and soon to its owner too.
 */
import type { FastifyPluginAsync } from 'fastify';
import { PDF_DOWNLOAD_PARAM, pdfMessages } from '../../contract';
import type { HttpError } from '../errors';
import { FILE_CSP } from '../security/csp';
import { refusals } from '../security/events';
import { attachment } from '../http/attachment';
import type { ApplicationPdfContext } from './context';
import { downloadPdf, pdfStatus } from './download';

export function pdfRoutes(ctx: ApplicationPdfContext): FastifyPluginAsync {
  return async (app) => {
    app.get('/pdf', async (request) => pdfStatus(ctx, request.user, request.tenant.definitionAt));

    app.get('/pdf/file', async (request, reply) => {
      const grant = (request.query as Record<string, unknown>)[PDF_DOWNLOAD_PARAM];
      const refused = (error: HttpError) =>
        error.message === pdfMessages.linkExpired ? 'token.download_refused' : null;
      const { bytes, fileName } = await downloadPdf(ctx, request.user, grant).catch(
        refusals(request, refused, { account: request.user.userId }),
      );
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', attachment(fileName))
        .header('Content-Security-Policy', FILE_CSP)
        .header('Cache-Control', 'no-store')
        .send(bytes);
    });
  };
}
