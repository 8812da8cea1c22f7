/**
 * The platform's own calls, for the description: the operator's tenant administration (`npm run
 * tenant`, D145), the admins' list of versions, and the operations endpoints (D139, D140).
 */
import * as z from 'zod/mini';
import { formVersions } from '../../contract/staff';
import {
  ignoredResponse,
  messageResponse,
  tenantAddBody,
  tenantInstitutionBody,
  tenantExportQuery,
  tenantParams,
  tenantPublishBody,
  tenantPublishResponse,
} from '../../contract';
import type { Operation } from './operation';

const version = z.object({ version: z.number() });
const checks = z.enum(['ok', 'failed']);
const readiness = z.object({
  status: z.enum(['ready', 'not ready']),
  checks: z.object({
    database: checks,
    migrations: checks,
    worker: z.enum(['ok', 'starting', 'failed']),
  }),
});
const health = z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) });
const operations = { tag: 'operations', status: 200 } as const;
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
    summary: 'Publish a new version of its form (none when it equals the latest)',
    params: tenantParams,
    body: tenantPublishBody,
    response: tenantPublishResponse,
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
    summary: 'Its institution file and latest definition (or version N)',
    params: tenantParams,
    query: tenantExportQuery,
    response: z.object({ institution: z.unknown(), definition: z.unknown(), version: z.number() }),
  },
  {
    ...operations,
    method: 'get',
    path: '/healthz',
    summary: 'Liveness: the process and its database answer',
    response: health,
  },
  {
    ...operations,
    method: 'get',
    path: '/readyz',
    summary: 'Readiness: database, migrations, a live worker (else 503)',
    response: readiness,
  },
  {
    ...operations,
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics (only with METRICS_TOKEN set)',
    security: 'metricsToken',
    response: 'prometheus',
  },
  {
    ...operations,
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This description',
    response: ignoredResponse,
  },
];
