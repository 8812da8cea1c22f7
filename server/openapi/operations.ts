/**
 * Every route the server answers, with the contract schemas it parses and answers with (D140): the
 * table `./document.ts` turns into the OpenAPI description. A route added to the server without a
 * line here fails tests/server/openapi.test.ts.
 */
import * as z from 'zod/mini';
import type { Operation, Tag } from './operation';
import { PLATFORM_OPERATIONS } from './platformOperations';
import { PRIVACY_OPERATIONS } from './privacyOperations';
import { STAFF_EXPORT_OPERATIONS } from './staffExportOperations';
import { STAFF_PASSWORD_OPERATIONS } from './staffPasswordOperations';
import {
  addAnotherBody,
  addAnotherResponse,
  answersBody,
  applicationPdfResponse,
  confirmBody,
  conversionBody,
  conversionResponse,
  documentAnswersResponse,
  forgotBody,
  lastPageBody,
  loginBody,
  lookupDetail,
  lookupQuery,
  lookupSuggestions,
  messageResponse,
  mintServiceTokenBody,
  mintServiceTokenResponse,
  presignedUrlBody,
  presignedUrlResponse,
  profileResponse,
  resendBody,
  resetBody,
  revokeServiceTokenParams,
  saveAnswersResponse,
  serviceDataResponse,
  signupBody,
  tabsBody,
  tabsResponse,
  tmpAnswersBody,
  tmpAnswersResponse,
  validationsBody,
  webStatusBody,
} from '../../contract';
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
import { tmpTokenQuery } from '../application';
import { serviceTokenQuery } from '../serviceView';

const questionKeyParams = z.object({ question_key: z.string().check(z.minLength(1)) });
const tmpTokenResponse = z.object({ token: z.string() });
const conversionQueued = z.object({ status: z.literal('UNPROCESSED') });
const op = (
  method: Operation['method'],
  path: string,
  tag: Tag,
  summary: string,
  rest: Omit<Operation, 'method' | 'path' | 'tag' | 'summary' | 'status'> & { status?: number },
): Operation => ({ method, path, tag, summary, status: 200, ...rest });

export const OPERATIONS: readonly Operation[] = [
  // --- Accounts (SPEC 7.2, /public) ------------------------------------------------------------
  op('post', '/public/signup', 'accounts', 'Create an account; a confirmation code is mailed', {
    body: signupBody,
    response: messageResponse,
  }),
  op('post', '/public/confirm', 'accounts', 'Confirm an account with the mailed code', {
    body: confirmBody,
    response: messageResponse,
  }),
  op('post', '/public/resend-confirm', 'accounts', 'Mail a new confirmation code', {
    body: resendBody,
    response: messageResponse,
  }),
  op('post', '/public/login', 'accounts', 'Log in; sets the session cookie', {
    body: loginBody,
    response: messageResponse,
  }),
  op('post', '/public/forgot-password', 'accounts', 'Mail a password reset link', {
    body: forgotBody,
    response: messageResponse,
  }),
  op('post', '/public/reset-password', 'accounts', 'Set a new password with a reset link', {
    body: resetBody,
    response: messageResponse,
  }),
  op('post', '/public/tmp', 'accounts', 'Keep answers given before signing up', {
    body: tmpAnswersBody,
    response: tmpTokenResponse,
  }),
  op('get', '/public/tmp', 'accounts', 'Read the answers kept before signing up', {
    query: tmpTokenQuery,
    response: tmpAnswersResponse,
  }),

  // --- The applicant's application (SPEC 7.2, /api) ----------------------------------------------
  op('get', '/api/profile', 'application', 'The answers, statuses and last page', {
    security: 'session',
    response: profileResponse,
  }),
  op('post', '/api/web-status', 'application', 'Record a web status', {
    security: 'session',
    body: webStatusBody,
    status: 204,
  }),
  op('put', '/api/last-page', 'application', 'Record the last page visited', {
    security: 'session',
    body: lastPageBody,
    status: 204,
  }),
  op('put', '/api/answer', 'application', 'Save answers (If-Match: the version last seen)', {
    security: 'session',
    body: answersBody,
    response: saveAnswersResponse,
  }),
  op('post', '/api/validations', 'application', 'Record the messages shown per key', {
    security: 'session',
    body: validationsBody,
    status: 204,
  }),
  op('post', '/api/submit', 'application', 'Submit the application (422 with the errors per key)', {
    security: 'session',
    response: messageResponse,
  }),
  op('get', '/api/add-another', 'application', 'Instances shown per add-another button', {
    security: 'session',
    response: addAnotherResponse,
  }),
  op('put', '/api/add-another', 'application', 'Set the instances of an add-another button', {
    security: 'session',
    body: addAnotherBody,
    status: 204,
  }),
  op('get', '/api/tabs', 'application', 'The chosen tab of each tab group', {
    security: 'session',
    response: tabsResponse,
  }),
  op('put', '/api/tabs', 'application', 'Choose a tab', {
    security: 'session',
    body: tabsBody,
    status: 204,
  }),
  op('get', '/api/logout', 'application', 'Log out', {
    security: 'session',
    response: messageResponse,
  }),
  ...(['/api/logout', '/api/logout/everywhere'] as const).map((path) =>
    op('post', path, 'application', 'Log out (everywhere: every session)', {
      security: 'session',
      response: messageResponse,
    }),
  ),
  op('get', '/api/pdf', 'application', 'The application PDF: its status and download URL', {
    security: 'session',
    response: applicationPdfResponse,
  }),
  op(
    'get',
    '/api/pdf/file',
    'application',
    'Download the application PDF (the URL of GET /api/pdf)',
    {
      security: 'session',
      query: z.object({ download: z.string() }),
      response: 'pdf',
    },
  ),

  // --- Documents (SPEC 4.4) -------------------------------------------------------------------
  op('post', '/api/presigned-url', 'documents', 'A form to upload one file for a question', {
    security: 'session',
    body: presignedUrlBody,
    response: presignedUrlResponse,
  }),
  op('post', '/api/uploads', 'documents', 'The upload of a presigned form (local storage)', {
    body: 'multipart',
    status: 204,
  }),
  op('get', '/api/document-answer', 'documents', 'The document answers: name and size per key', {
    security: 'session',
    response: documentAnswersResponse,
  }),
  op('delete', '/api/document-answer/{question_key}', 'documents', 'Remove a document answer', {
    security: 'session',
    params: questionKeyParams,
    status: 204,
  }),
  op('post', '/api/pdf/document-answer/{question_key}', 'documents', 'Convert an uploaded file', {
    security: 'session',
    params: questionKeyParams,
    body: conversionBody,
    status: 202,
    response: conversionQueued,
  }),
  op('get', '/api/pdf/document-answer/{question_key}', 'documents', 'A conversion’s status', {
    security: 'session',
    params: questionKeyParams,
    response: conversionResponse,
  }),
  op('delete', '/api/pdf/document-answer/{question_key}', 'documents', 'Cancel a conversion', {
    security: 'session',
    params: questionKeyParams,
    status: 204,
  }),

  // --- Lookup (SPEC 3.7) ------------------------------------------------------------------------
  op('get', '/lookup/find', 'lookup', 'Suggestions for typed text, or one entry’s detail', {
    query: lookupQuery,
    response: z.union([lookupSuggestions, lookupDetail]),
  }),

  // --- Service view and links (SPEC 2.9, D41) --------------------------------------------------
  op('get', '/service/tmp-pdf', 'service', 'An applicant’s answers through a service link', {
    security: 'serviceToken',
    query: serviceTokenQuery,
    response: serviceDataResponse,
  }),
  ...(['post', 'put', 'patch', 'delete'] as const).map((method) =>
    op(method, '/service/tmp-pdf', 'service', 'Refused: the service view is read-only', {
      status: 405,
      response: messageResponse,
    }),
  ),
  op('post', '/service/tokens', 'service', 'Mint a service link for an applicant', {
    security: 'staffKey',
    body: mintServiceTokenBody,
    response: mintServiceTokenResponse,
  }),
  op('delete', '/service/tokens/{id}', 'service', 'Revoke a service link', {
    security: 'staffKey',
    params: revokeServiceTokenParams,
    response: messageResponse,
  }),

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
