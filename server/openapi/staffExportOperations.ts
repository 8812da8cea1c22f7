/** The staff console's exports besides the CSV itself (D168): the office's CSV columns. */
import { messageResponse } from '../../contract';
import { exportColumnsBody, exportColumnsResponse } from '../../contract/staffExports';
import type { Operation } from './operations';

const admins = { tag: 'staff', status: 200, security: 'staffSession' } as const;

export const STAFF_EXPORT_OPERATIONS: readonly Operation[] = [
  {
    ...admins,
    method: 'get',
    path: '/staff/api/export-columns',
    summary: 'The CSV’s columns and the office’s choice (admins)',
    response: exportColumnsResponse,
  },
  {
    ...admins,
    method: 'put',
    path: '/staff/api/export-columns',
    summary: 'Save the CSV’s columns for the office (admins)',
    body: exportColumnsBody,
    response: messageResponse,
  },
  {
    ...admins,
    method: 'delete',
    path: '/staff/api/export-columns',
    summary: 'Reset the CSV to every column (admins)',
    response: messageResponse,
  },
];
