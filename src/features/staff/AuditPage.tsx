/**
 * `/staff/audit` (admins): the whole audit history in words, newest first, in the institution's
 * time zone: who did what, to which applicant (their name links to the application), filtered by
 * who, what, which applicant and the days, paged on the server (D156). The filters and the page are
 * in the URL.
 */
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import {
  AUDIT_ACTIONS,
  AUDIT_CLI_ACTOR,
  AUDIT_EVENT_WORDS,
  auditPage,
  staffList,
  staffMessages,
  type AuditAction,
  type AuditEntry,
  type AuditQuery,
} from '#contract/staff.ts';
import { TextField } from '../../components/form/TextField';
import { staffCall } from './api';
import { auditQueryOf, filterOf, queryString, searchOf } from './listSearch';
import { Pager } from './Pager';
import { useMe } from './session';
import styles from './staff.module.css';
import {
  ApplicationLink,
  Failure,
  LOCAL_TIME_ZONE,
  localTime,
  Notice,
  Select,
  TableFrame,
  useStaffTitle,
} from './ui';

const route = getRouteApi('/staff/audit');

const WHAT_OPTIONS = [
  ['', 'Anything'],
  ...AUDIT_ACTIONS.map((action) => [action, AUDIT_EVENT_WORDS[action].label] as const),
] as const;

export function AuditPage() {
  useStaffTitle('Audit log');
  const isAdmin = useMe().data?.role === 'admin';
  return (
    <section aria-labelledby="staff-audit">
      <h1 id="staff-audit" className={styles.title}>
        Audit log
      </h1>
      {isAdmin ? <Audit /> : <Failure error={staffMessages.forbidden} />}
    </section>
  );
}

function Audit() {
  const { query, problem } = auditQueryOf(route.useSearch());
  const navigate = useNavigate();
  const go = (next: AuditQuery) => void navigate({ to: '/staff/audit', search: searchOf(next) });
  // A filter change starts again from the newest entry.
  const change = (part: Partial<AuditQuery>) => go({ ...filterOf(query), ...part });
  const api = queryString(query);
  const page = useQuery({
    queryKey: ['staff', 'audit', api],
    queryFn: () => staffCall(auditPage, `/audit?${api}`),
    placeholderData: (previous) => previous,
  });
  const staff = useQuery({
    queryKey: ['staff', 'members'],
    queryFn: () => staffCall(staffList, '/staff'),
  });
  const whoOptions: (readonly [string, string])[] = [
    ['', 'Anyone'],
    ...(staff.data?.staff.map((member) => [member.id, member.email] as const) ?? []),
    [AUDIT_CLI_ACTOR, 'The command line'],
  ];
  // A staff member of a hand-edited URL the list does not hold still shows as chosen.
  if (query.who && !whoOptions.some(([id]) => id === query.who))
    whoOptions.push([query.who, 'A staff member']);
  const applicantName = page.data?.rows.find(
    (row) => row.applicant_id === query.applicant,
  )?.applicant_name;

  return (
    <>
      <p>Times are in the institution’s time zone ({LOCAL_TIME_ZONE}).</p>
      {problem ? <Notice>{problem}</Notice> : null}
      <div className={styles.bar}>
        <Select<string>
          label="Who"
          value={query.who ?? ''}
          options={whoOptions}
          onValueChange={(who) => change({ who: who || undefined })}
        />
        <Select<AuditAction>
          label="What"
          value={query.what ?? ''}
          options={WHAT_OPTIONS}
          onValueChange={(what) => change({ what: what || undefined })}
        />
        <TextField
          label="From"
          type="date"
          value={query.from ?? ''}
          onValueChange={(from) => change({ from: from || undefined })}
        />
        <TextField
          label="To"
          type="date"
          value={query.to ?? ''}
          onValueChange={(to) => change({ to: to || undefined })}
        />
      </div>
      {query.applicant ? (
        <p className={styles.count}>
          Only the events of {applicantName || 'one applicant'}.{' '}
          <button
            type="button"
            className={styles.secondary}
            onClick={() => change({ applicant: undefined })}
          >
            Show every applicant
          </button>
        </p>
      ) : null}
      <Failure error={page.error} />
      <p role="status" className={styles.count}>
        {page.data
          ? `${page.data.total.toLocaleString('en-US')} ${page.data.total === 1 ? 'event' : 'events'}`
          : 'Loading…'}
      </p>
      <TableFrame label="Audit log entries">
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {page.data?.rows.map((entry) => (
              <tr key={entry.id}>
                <td className={styles.nowrap}>{localTime(entry.at)}</td>
                <td>{entry.actor === AUDIT_CLI_ACTOR ? 'The command line' : entry.actor}</td>
                <td>
                  <EventWords entry={entry} />
                  {entry.applicant_id && !query.applicant ? (
                    <>
                      {' '}
                      <button
                        type="button"
                        className={styles.linkButton}
                        onClick={() => change({ applicant: entry.applicant_id ?? undefined })}
                      >
                        Only this applicant
                        <span className="visually-hidden">
                          : {entry.applicant_name || 'a removed applicant'}
                        </span>
                      </button>
                    </>
                  ) : null}
                </td>
                <td>{entry.detail ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableFrame>
      {page.data ? (
        <Pager
          page={page.data}
          empty="No events"
          onGo={(position) => go({ ...filterOf(query), ...position })}
        />
      ) : null}
    </>
  );
}

/** "Viewed the application of Ada Lovelace", the name a link to the application. */
function EventWords({ entry }: { entry: AuditEntry }) {
  const words = AUDIT_EVENT_WORDS[entry.action].words;
  if (!entry.applicant_id) return <>{words}</>;
  return (
    <>
      {words}{' '}
      {entry.applicant_name === null ? (
        'an applicant whose account is gone'
      ) : (
        <ApplicationLink id={entry.applicant_id} name={entry.applicant_name} />
      )}
    </>
  );
}
