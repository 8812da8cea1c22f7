/** The applicant's rights over their data and the admins' deletion requests (D152). */
import { deleteAccountBody, deleteAccountResponse, messageResponse } from '../../contract';
import { deletionRequestList } from '../../contract/deletionRequests';
import { applicantParams } from '../../contract/staff';
import type { Operation } from './operation';

const applicant = { tag: 'application', status: 200, security: 'session' } as const;
const admin = { tag: 'staff', status: 200, security: 'staffSession' } as const;

export const PRIVACY_OPERATIONS: readonly Operation[] = [
  {
    ...applicant,
    method: 'delete',
    path: '/api/account',
    summary: 'Delete my account (after submission: request it)',
    body: deleteAccountBody,
    response: deleteAccountResponse,
  },
  {
    ...applicant,
    method: 'get',
    path: '/api/account/export',
    summary: 'Download my data: a ZIP of all held about me',
    response: 'zip',
  },
  {
    ...admin,
    method: 'get',
    path: '/staff/api/deletion-requests',
    summary: 'Applicants’ deletion requests (admins)',
    response: deletionRequestList,
  },
  {
    ...admin,
    method: 'post',
    path: '/staff/api/deletion-requests/{id}/complete',
    summary: 'Complete a deletion request: the account is deleted (admins)',
    params: applicantParams,
    response: messageResponse,
  },
];
