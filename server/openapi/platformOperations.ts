/** The platform operator's tenant administration (`npm run tenant`, D145), for the description. */
import * as z from 'zod/mini';
import { formVersions } from '../../contract/staff';
import {
  messageResponse,
  tenantAddBody,
  tenantInstitutionBody,
  tenantParams,
  tenantPublishBody,
} from '../../contract';
import type { Operation } from './operations';

const version = z.object({ version: z.number() });
const rest = { tag: 'operations', status: 200, security: 'staffKey' } as const;

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
  {
    ...rest,
    method: 'get',
    path: '/platform/api/tenants',
    summary: 'Every college, its hosts and versions (the command line key)',
    response: z.object({ tenants: z.array(z.unknown()) }),
  },
  {
    ...rest,
    method: 'post',
    path: '/platform/api/tenants',
    summary: 'Add a college from its two files',
    body: tenantAddBody,
    response: version,
  },
  {
    ...rest,
    method: 'post',
    path: '/platform/api/tenants/{id}/versions',
    summary: 'Publish a new version of its form',
    params: tenantParams,
    body: tenantPublishBody,
    response: version,
  },
  {
    ...rest,
    method: 'put',
    path: '/platform/api/tenants/{id}/institution',
    summary: 'Replace its institution file',
    params: tenantParams,
    body: tenantInstitutionBody,
    response: messageResponse,
  },
  {
    ...rest,
    method: 'get',
    path: '/platform/api/tenants/{id}/export',
    summary: 'Its institution file and latest definition',
    params: tenantParams,
    response: z.object({ institution: z.unknown(), definition: z.unknown(), version: z.number() }),
  },
];
