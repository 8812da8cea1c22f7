/** The staff password links (D157, D166): open without a session, their tokens in the body. */
import { messageResponse } from '../../contract';
import {
  staffForgotBody,
  staffInvitationBody,
  staffInvitationResponse,
  staffJoinBody,
  staffResetBody,
} from '../../contract/staffPassword';
import type { Operation } from './operation';

const open = { tag: 'staff', status: 200, method: 'post' } as const;

export const STAFF_PASSWORD_OPERATIONS: readonly Operation[] = [
  {
    ...open,
    path: '/staff/api/invitation',
    summary: 'Who an invitation is for: its address and role',
    body: staffInvitationBody,
    response: staffInvitationResponse,
  },
  {
    ...open,
    path: '/staff/api/join',
    summary: 'Accept an invitation: set a password',
    body: staffJoinBody,
    response: messageResponse,
  },
  {
    ...open,
    path: '/staff/api/forgot-password',
    summary: 'Mail a reset link (the same answer for any address)',
    body: staffForgotBody,
    response: messageResponse,
  },
  {
    ...open,
    path: '/staff/api/reset-password',
    summary: 'Set a new password with a reset link (the second factor stays)',
    body: staffResetBody,
    response: messageResponse,
  },
];
