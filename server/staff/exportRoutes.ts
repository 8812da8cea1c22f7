/**
 * The CSV's column choice (D168): admins read, save and reset it for the office. "Download PDFs"
 * (D169): admins start a ZIP of the filtered set's PDFs, follow its progress and download it.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { applicationQuery } from '../../contract/staff';
import { messageResponse } from '../../contract';
import {
  exportColumnsBody,
  exportColumnsResponse,
  exportMessages,
  pdfBundleParams,
  pdfBundleStatus as pdfBundleStatusResponse,
} from '../../contract/staffExports';
import { disposition } from '../http/attachment';
import { pdfBundleStatus, pdfBundleZip, startPdfBundle } from './pdfBundles';
import { parse } from '../http/parse';
import { described } from '../routeDescription';
import { staffCall } from './routeDescription';
import type { ApplicationPdfContext } from '../applicationPdf';
import { actorOf } from './accounts';
import { exportColumns, resetColumns, saveColumns } from './exportColumns';
import { staffOf } from './sessions';
import { versionedAnswerColumns } from './exportCsv';

/** Room for a few thousand keys of the definitions' length. */
const COLUMN_LIST_BYTES = 256 * 1024;

export function exportRoutes(ctx: ApplicationPdfContext): FastifyPluginAsync {
  return async (app) => {
    const admin = { config: { staffAccess: 'admin' as const } };

    app.get(
      '/export-columns',
      described(
        staffCall('The CSV’s columns and the office’s choice (admins)', {
          response: exportColumnsResponse,
        }),
        admin,
      ),
      async (request) => exportColumns(ctx, request.tenant.id, request.tenant),
    );

    // One member per column of the form (and the `columns` key): a longer list is refused unread.
    const bodyLimits = {
      bodyLimit: COLUMN_LIST_BYTES,
      config: {
        ...admin.config,
        json: {
          depth: 2,
          members: (request: FastifyRequest) => versionedAnswerColumns(request.tenant).length + 1,
        },
      },
    };

    app.put(
      '/export-columns',
      described(
        staffCall('Save the CSV’s columns for the office (admins)', {
          body: exportColumnsBody,
          response: messageResponse,
        }),
        bodyLimits,
      ),
      async (request) => {
        const { columns } = parse(exportColumnsBody, request.body);
        await saveColumns(ctx, actorOf(staffOf(request)), request.tenant, columns);
        return { message: exportMessages.columnsSaved };
      },
    );

    app.delete(
      '/export-columns',
      described(
        staffCall('Reset the CSV to every column (admins)', { response: messageResponse }),
        admin,
      ),
      async (request) => {
        await resetColumns(ctx, actorOf(staffOf(request)));
        return { message: exportMessages.columnsReset };
      },
    );

    app.post(
      '/pdf-bundles',
      described(
        staffCall(
          'Start a ZIP of the filtered applications’ PDFs (admins; 202 with its progress)',
          { query: applicationQuery, status: 202, response: pdfBundleStatusResponse },
        ),
        admin,
      ),
      async (request, reply) => {
        const { q, status, from, to } = parse(applicationQuery, request.query);
        const started = await startPdfBundle(ctx, actorOf(staffOf(request)), {
          q,
          status,
          from,
          to,
        });
        return reply.status(202).send(started);
      },
    );

    app.get(
      '/pdf-bundles/:id',
      described(
        staffCall('A PDF ZIP’s progress (admins)', {
          params: pdfBundleParams,
          response: pdfBundleStatusResponse,
        }),
        admin,
      ),
      async (request) => {
        const { id } = parse(pdfBundleParams, request.params);
        return pdfBundleStatus(ctx, request.tenant.id, id);
      },
    );

    app.get(
      '/pdf-bundles/:id/zip',
      described(
        staffCall('The finished PDF ZIP (admins; 409 while it is built)', {
          params: pdfBundleParams,
          response: 'zip',
        }),
        admin,
      ),
      async (request, reply) => {
        const { id } = parse(pdfBundleParams, request.params);
        const file = await pdfBundleZip(ctx, request.tenant.id, id);
        return reply
          .header('Content-Type', 'application/zip')
          .header('Content-Length', file.size)
          .header('Content-Disposition', disposition('attachment', file.fileName))
          .send(file.body);
      },
    );
  };
}
