/**
 * Deletion requests of submitted applications (D152): an admin lists them and completes one, which
 * deletes the account as "Delete my account" does before submission. Both audited.
 */
import type { FastifyPluginAsync } from 'fastify';
import { applicationReference, messageResponse } from '../../contract';
import {
  COMPLETED_DELETIONS_SHOWN,
  deletionRequestList as deletionRequestListResponse,
  type DeletionRequestList,
} from '../../contract/deletionRequests';
import { applicantParams, staffMessages } from '../../contract/staff';
import { HttpError } from '../errors';
import { parse } from '../http/parse';
import { described } from '../routeDescription';
import { staffCall } from './routeDescription';
import {
  completedDeletionRequests,
  completeDeletionRequest,
  deletionRequestList,
} from '../account';
import type { ApplicationPdfContext } from '../applicationPdf';
import { actorOf } from './accounts';
import { staffOf } from './sessions';
import { audit } from '../db/auditTrail';

export function deletionRoutes(ctx: ApplicationPdfContext): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/deletion-requests',
      described(
        staffCall('Applicants’ deletion requests (admins)', {
          response: deletionRequestListResponse,
        }),
        { config: { staffAccess: 'admin' } },
      ),
      async (request) => {
        const tenantId = request.tenant.id;
        const rows = await deletionRequestList(ctx, tenantId);
        const done = await completedDeletionRequests(ctx, tenantId, COMPLETED_DELETIONS_SHOWN);
        await audit(ctx, actorOf(staffOf(request)), 'application.list', null, 'deletion requests');
        const answer: DeletionRequestList = {
          submitted_kept_years: ctx.institutionOf(tenantId).retention.submitted_years,
          requests: rows.map((row) => ({
            applicant_id: row.userId,
            reference: applicationReference(row.userId),
            name: row.name ?? '',
            email: row.email,
            requested_at: row.requestedAt.toISOString(),
            submitted_at: row.submittedAt?.toISOString() ?? null,
          })),
          completed: done.map((row) => ({
            reference: applicationReference(row.userId),
            requested_at: row.requestedAt?.toISOString() ?? null,
            completed_at: row.completedAt.toISOString(),
            completed_by: row.completedBy,
          })),
        };
        return answer;
      },
    );

    app.post(
      '/deletion-requests/:id/complete',
      described(
        staffCall('Complete a deletion request: the account is deleted (admins)', {
          params: applicantParams,
          response: messageResponse,
        }),
        { config: { staffAccess: 'admin' } },
      ),
      async (request) => {
        const { id } = parse(applicantParams, request.params);
        if (!(await completeDeletionRequest(ctx, actorOf(staffOf(request)), id)))
          throw new HttpError(404, staffMessages.noSuchDeletionRequest);
        return { message: staffMessages.accountDeleted };
      },
    );
  };
}
