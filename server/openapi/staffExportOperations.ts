/** The staff console's exports besides the CSV itself: the office's CSV columns (D168), PDF ZIPs (D169). */
import { messageResponse } from '../../contract';
import { applicationQuery } from '../../contract/staff';
import {
  exportColumnsBody,
  exportColumnsResponse,
  pdfBundleParams,
  pdfBundleStatus,
} from '../../contract/staffExports';
import type { Operation } from './operation';

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
  {
    ...admins,
    method: 'post',
    path: '/staff/api/pdf-bundles',
    summary: 'Start a ZIP of the filtered applications’ PDFs (admins; 202 with its progress)',
    query: applicationQuery,
    status: 202,
    response: pdfBundleStatus,
  },
  {
    ...admins,
    method: 'get',
    path: '/staff/api/pdf-bundles/{id}',
    summary: 'A PDF ZIP’s progress (admins)',
    params: pdfBundleParams,
    response: pdfBundleStatus,
  },
  {
    ...admins,
    method: 'get',
    path: '/staff/api/pdf-bundles/{id}/zip',
    summary: 'The finished PDF ZIP (admins; 409 while it is built)',
    params: pdfBundleParams,
    response: 'zip',
  },
];
