/**
 * The application PDF (SPEC 7.2 `GET /api/pdf`) and its download. Both need a live session (401
 * otherwise); the download also needs the short-lived grant `GET /api/pdf` hands out, so a URL that
 * leaks (history, a shared screen) is useless to anyone else and soon to its owner too.
 */
import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod/mini';
import { applicationPdfResponse, PDF_DOWNLOAD_PARAM, pdfMessages } from '../../contract';
import type { HttpError } from '../errors';
import { FILE_CSP } from '../security/csp';
import { refusals } from '../security/events';
import { attachment } from '../http/attachment';
import { described } from '../routeDescription';
import type { ApplicationPdfContext } from './context';
import { downloadPdf, pdfStatus } from './download';

export function pdfRoutes(ctx: ApplicationPdfContext): FastifyPluginAsync {
  return async (app) => {
    const status = described({
      tag: 'application',
      summary: 'The application PDF: its status and download URL',
      security: 'session',
      response: applicationPdfResponse,
    });
    app.get('/pdf', status, async (request) =>
      pdfStatus(ctx, request.user, request.tenant.definitionAt),
    );

    const download = described({
      tag: 'application',
      summary: 'Download the application PDF (the URL of GET /api/pdf)',
      security: 'session',
      query: z.object({ [PDF_DOWNLOAD_PARAM]: z.string() }),
      response: 'pdf',
    });
    app.get('/pdf/file', download, async (request, reply) => {
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
