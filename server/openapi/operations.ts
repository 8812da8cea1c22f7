/**
 * Every route the server answers, with the contract schemas it parses and answers with (D140): the
 * table `./document.ts` turns into the OpenAPI description. A route added to the server without a
 * line here fails tests/server/openapi.test.ts.
 */
import type { RouteDescription, Tag } from './described';
import * as z from 'zod/mini';
import { PLATFORM_OPERATIONS } from './platformOperations';
import { PRIVACY_OPERATIONS } from './privacyOperations';
import { STAFF_EXPORT_OPERATIONS } from './staffExportOperations';
import { STAFF_PASSWORD_OPERATIONS } from './staffPasswordOperations';
import { messageResponse } from '../../contract';
import {
  applicantParams,
  applicationPage,
  applicationQuery,
  exportQuery,
  auditPage,
  auditQuery,
  documentParams,
  enrolmentResponse,
  linkPage,
  linkParams,
  linkQuery,
  mintedLink,
  recoveryCodesResponse,
  serviceLinkList,
  staffApplication,
  staffCodeBody,
  staffIdParams,
  staffInviteBody,
  staffList,
  staffLoginBody,
  staffMeResponse,
} from '../../contract/staff';

export interface Operation extends RouteDescription {
  readonly method: 'get' | 'post' | 'put' | 'delete' | 'patch';
  /** OpenAPI's form: `{param}`. */
  readonly path: string;
}

const op = (
  method: Operation['method'],
  path: string,
  tag: Tag,
  summary: string,
  rest: Omit<Operation, 'method' | 'path' | 'tag' | 'summary'>,
): Operation => ({ method, path, tag, summary, ...rest });

export const OPERATIONS: readonly Operation[] = [
  // --- The staff console (/staff/api, docs/staff.md) -------------------------------------------
  op('post', '/staff/api/login', 'staff', 'Sign in (then the second factor)', {
    body: staffLoginBody,
    response: staffMeResponse,
  }),
  op('get', '/staff/api/me', 'staff', 'Who is signed in, and the sign-in stage', {
    security: 'staffSession',
    response: staffMeResponse,
  }),
  op('get', '/staff/api/enrolment', 'staff', 'Start setting up an authenticator app', {
    security: 'staffSession',
    response: enrolmentResponse,
  }),
  op('post', '/staff/api/enrolment', 'staff', 'Finish the set-up; answers recovery codes', {
    security: 'staffSession',
    body: staffCodeBody,
    response: recoveryCodesResponse,
  }),
  op('post', '/staff/api/verify', 'staff', 'The second factor', {
    security: 'staffSession',
    body: staffCodeBody,
    response: staffMeResponse,
  }),
  op('post', '/staff/api/logout', 'staff', 'Sign out', {
    security: 'staffSession',
    response: messageResponse,
  }),
  ...STAFF_PASSWORD_OPERATIONS,
  op('post', '/staff/api/cli/staff', 'staff', 'Invite staff from the command line (its key)', {
    security: 'staffKey',
    body: staffInviteBody,
    response: z.object({ link: z.string() }),
  }),
  op('get', '/staff/api/staff', 'staff', 'The staff (admins)', {
    security: 'staffSession',
    response: staffList,
  }),
  op('post', '/staff/api/invitations', 'staff', 'Invite a staff member (admins)', {
    security: 'staffSession',
    body: staffInviteBody,
    response: messageResponse,
  }),
  op('post', '/staff/api/staff/{id}/disable', 'staff', 'Disable a staff member (admins)', {
    security: 'staffSession',
    params: staffIdParams,
    response: messageResponse,
  }),
  op('get', '/staff/api/audit', 'staff', 'The audit log, filtered and paged (admins)', {
    security: 'staffSession',
    query: auditQuery,
    response: auditPage,
  }),
  op('get', '/staff/api/applications', 'staff', 'The applications, searched, filtered and paged', {
    security: 'staffSession',
    query: applicationQuery,
    response: applicationPage,
  }),
  op('get', '/staff/api/export.csv', 'staff', 'The applications as CSV (admins)', {
    security: 'staffSession',
    query: exportQuery,
    response: 'csv',
  }),
  op('get', '/staff/api/applications/{id}', 'staff', 'One application', {
    security: 'staffSession',
    params: applicantParams,
    response: staffApplication,
  }),
  op(
    'get',
    '/staff/api/applications/{id}/pdf',
    'staff',
    'The application PDF (202 while prepared)',
    {
      security: 'staffSession',
      params: applicantParams,
      response: 'pdf',
    },
  ),
  op('get', '/staff/api/applications/{id}/documents/{key}', 'staff', 'A converted document', {
    security: 'staffSession',
    params: documentParams,
    response: 'pdf',
  }),
  op('get', '/staff/api/applications/{id}/links', 'staff', 'An application’s service links', {
    security: 'staffSession',
    params: applicantParams,
    response: serviceLinkList,
  }),
  op('post', '/staff/api/applications/{id}/links', 'staff', 'Mint a service link', {
    security: 'staffSession',
    params: applicantParams,
    response: mintedLink,
  }),
  op('delete', '/staff/api/applications/{id}/links/{tokenId}', 'staff', 'Revoke a link (admins)', {
    security: 'staffSession',
    params: linkParams,
    response: messageResponse,
  }),
  op('get', '/staff/api/links', 'staff', 'Every service link, paged (admins)', {
    security: 'staffSession',
    query: linkQuery,
    response: linkPage,
  }),
  ...STAFF_EXPORT_OPERATIONS,

  ...PRIVACY_OPERATIONS,
  ...PLATFORM_OPERATIONS,
];
