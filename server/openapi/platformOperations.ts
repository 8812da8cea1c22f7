/**
 * The platform's own calls, for the description: the operator's tenant administration (`npm run
 * tenant`, D145), the admins' list of versions, and the operations endpoints (D139, D140).
 */
import { formVersions } from '../../contract/staff';
import type { Operation } from './operations';

export const PLATFORM_OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/staff/api/versions',
    tag: 'staff',
    summary: 'The published versions of the form (admins)',
    security: 'staffSession',
    status: 200,
    response: formVersions,
  },
];
