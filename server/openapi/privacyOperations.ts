/** The applicant's rights over their data and the admins' deletion requests (D152). */
import { messageResponse } from '../../contract';
import { deletionRequestList } from '../../contract/deletionRequests';
import { applicantParams } from '../../contract/staff';
import type { Operation } from './operations';

const admin = { tag: 'staff', status: 200, security: 'staffSession' } as const;

export const PRIVACY_OPERATIONS: readonly Operation[] = [
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
