/**
 * `/staff`: the institution's applications, searched, filtered, sorted and paged on the server. The
 * whole state is in the URL (reload, back and forward keep it); typing in the search replaces the
 * history entry, the other changes add one.
 */
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import {
  APPLICATION_STATUS_LABELS,
  applicationPage,
  type ApplicationQuery,
} from '#contract/staff.ts';
import { WEB_STATUSES, type WebStatus } from '#contract/webStatus.ts';
import { staffCall } from './api';
import { ExportColumnsButton } from './ExportColumns';
import { PdfBundleButton } from './PdfBundle';
import { filterOf, listQueryOf, queryString, searchOf } from './listSearch';
import { Pager } from './Pager';
import { useMe } from './session';
import styles from './staff.module.css';
import { ApplicationLink, day, Failure, Notice, Select, TableFrame, useStaffTitle } from './ui';
import { TextField } from '../../components/form/TextField';

const route = getRouteApi('/staff/');
const SEARCH_DELAY_MS = 300;

const COLUMNS = [
  ['name', 'Name'],
  ['email', 'E-mail'],
  ['status', 'Status'],
  ['submitted', 'Submitted'],
  ['updated', 'Last change'],
  ['documents', 'Documents'],
] as const;

const STATUS_OPTIONS = [
  ['', 'Any'],
  ...WEB_STATUSES.map((status) => [status, APPLICATION_STATUS_LABELS[status]] as const),
] as const;

export function ApplicationsPage() {
  useStaffTitle('Applications');
  const { query, problem } = listQueryOf(route.useSearch());
  const navigate = useNavigate();
  const isAdmin = useMe().data?.role === 'admin';
  const go = (next: ApplicationQuery, replace = false) =>
    void navigate({ to: '/staff', search: searchOf(next), replace });
  // A filter change starts again from the first page.
  const change = (part: Partial<ApplicationQuery>, replace = false) =>
    go({ ...filterOf(query), ...part }, replace);

  const [text, setText] = useState(query.q ?? '');
  useEffect(() => {
    if (text.trim() === (query.q ?? '')) return undefined;
    const timer = setTimeout(() => change({ q: text.trim() || undefined }, true), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  });

  const api = queryString(query);
  const page = useQuery({
    queryKey: ['staff', 'applications', api],
    queryFn: () => staffCall(applicationPage, `/applications?${api}`),
    placeholderData: (previous) => previous,
  });

  return (
    <section aria-labelledby="staff-applications">
      <h1 id="staff-applications" className={styles.title}>
        Applications
      </h1>
      {problem ? <Notice>{problem}</Notice> : null}
      <div className={styles.bar}>
        <TextField
          label="Search by name, e-mail or reference"
          type="search"
          value={text}
          onValueChange={setText}
        />
        <Select<WebStatus>
          label="Status"
          value={query.status ?? ''}
          options={STATUS_OPTIONS}
          onValueChange={(status) => change({ status: status || undefined })}
        />
        <TextField
          label="Submitted from"
          type="date"
          value={query.from ?? ''}
          onValueChange={(from) => change({ from: from || undefined })}
        />
        <TextField
          label="Submitted to"
          type="date"
          value={query.to ?? ''}
          onValueChange={(to) => change({ to: to || undefined })}
        />
        {isAdmin ? (
          <>
            <a
              className={styles.secondary}
              href={`/staff/api/export.csv?${queryString(filterOf(query))}`}
              download="applications.csv"
            >
              Export CSV
            </a>
            <ExportColumnsButton />
            <PdfBundleButton
              filter={queryString(filterOf(query))}
              total={page.data?.total ?? null}
            />
          </>
        ) : null}
      </div>
      <Failure error={page.error} />
      <p role="status" className={styles.count}>
        {page.data
          ? `${page.data.total.toLocaleString('en-US')} ${page.data.total === 1 ? 'application' : 'applications'}`
          : 'Loading…'}
      </p>
      <TableFrame label="Applications table">
        <table className={styles.table}>
          <caption className="visually-hidden">Applications, {sortCaption(query)}</caption>
          <thead>
            <tr>
              {COLUMNS.map(([sort, label]) => (
                <th key={sort} scope="col" aria-sort={ariaSort(query, sort)}>
                  <button
                    type="button"
                    className={styles.sortButton}
                    onClick={() =>
                      change({
                        sort,
                        dir: query.sort === sort && query.dir === 'desc' ? 'asc' : 'desc',
                      })
                    }
                  >
                    {label}
                    {query.sort === sort ? (query.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                  </button>
                </th>
              ))}
              <th scope="col">Reference</th>
            </tr>
          </thead>
          <tbody>
            {page.data?.rows.map((row) => (
              <tr key={row.id}>
                <td>
                  <ApplicationLink id={row.id} name={row.name} />
                </td>
                <td>{row.email}</td>
                <td>
                  <span className={styles.status} data-status={row.status}>
                    {APPLICATION_STATUS_LABELS[row.status]}
                  </span>
                </td>
                <td>{day(row.submitted_at)}</td>
                <td>{day(row.updated_at)}</td>
                <td>{row.documents}</td>
                <td className={styles.nowrap}>{row.reference}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableFrame>
      {page.data ? (
        <Pager
          page={page.data}
          empty="No applications"
          onGo={(position) => go({ ...filterOf(query), ...position })}
        />
      ) : null}
    </section>
  );
}

function ariaSort(query: ApplicationQuery, sort: string) {
  if (query.sort !== sort) return 'none';
  return query.dir === 'asc' ? 'ascending' : 'descending';
}

function sortCaption(query: ApplicationQuery) {
  const label = COLUMNS.find(([sort]) => sort === query.sort)?.[1] ?? 'Last change';
  return `sorted by ${label}, ${query.dir === 'asc' ? 'ascending' : 'descending'}`;
}
