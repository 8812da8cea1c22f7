/**
 * The staff console (issue 18, docs/staff.md): sign-in with the second factor, the applications
 * table, one application drawn with the print set, service links, staff and the audit log. Its own
 * QueryClient: a staff 401 means "sign in to the console", never the applicant's logout.
 */
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import * as Tabs from '@radix-ui/react-tabs';
import { useState, type FormEvent, type ReactNode } from 'react';
import {
  APPLICATION_STATUSES,
  applicationPage,
  auditPage,
  enrolmentResponse,
  mintedLink,
  recoveryCodesResponse,
  serviceLinkList,
  staffList,
  staffMeResponse,
  STAFF_ROLES,
  type ApplicationQuery,
  type StaffMe,
} from '../../../contract/staff';
import { messageResponse, serviceDataResponse } from '../../../contract';
import { applicationDefinition } from '../../../definitions';
import { PrintApplication } from '../../../renderers/print/application';
import { download, staffCall, StaffApiError } from './api';
import { usePrintStylesheet } from '../service-view/usePrintStylesheet';
import styles from './StaffConsole.module.css';

export function StaffConsole() {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 10_000 } } }),
  );
  return (
    <QueryClientProvider client={client}>
      <div className={styles.console}>
        <h1>Staff console</h1>
        <Gate />
      </div>
    </QueryClientProvider>
  );
}

const meQuery = {
  queryKey: ['staff', 'me'],
  queryFn: () => staffCall(staffMeResponse, '/me'),
};

function Gate() {
  const me = useQuery(meQuery);
  const queryClient = useQueryClient();
  const set = (next: StaffMe | null) =>
    next
      ? queryClient.setQueryData(meQuery.queryKey, next)
      : void queryClient.resetQueries({ queryKey: ['staff'] });
  const [joining, setJoining] = useState(() =>
    new URLSearchParams(window.location.search).get('token'),
  );
  if (joining)
    return (
      <Join
        token={joining}
        onDone={() => {
          window.history.replaceState(null, '', '/staff');
          setJoining(null);
        }}
      />
    );
  if (me.isPending) return <p role="status">Loading…</p>;
  if (!me.data) return <SignIn onDone={set} />;
  if (me.data.stage === 'enrol') return <Enrol onDone={set} me={me.data} />;
  if (me.data.stage === 'verify') return <Verify onDone={set} me={me.data} />;
  return <Console me={me.data} onSignOut={() => set(null)} />;
}

function Failure({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className={styles.error}>
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}

function useSubmit<T>(action: () => Promise<T>, onDone: (value: T) => void) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    action()
      .then(onDone, setError)
      .finally(() => setBusy(false));
  };
  return { error, busy, submit };
}

function SignIn({ onDone }: { onDone: (me: StaffMe) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { error, busy, submit } = useSubmit(
    () => staffCall(staffMeResponse, '/login', { method: 'POST', body: { email, password } }),
    onDone,
  );
  return (
    <form className={styles.card} onSubmit={submit} aria-labelledby="staff-sign-in">
      <h2 id="staff-sign-in">Sign in</h2>
      <TextField label="E-mail address" type="email" value={email} onChange={setEmail} />
      <TextField label="Password" type="password" value={password} onChange={setPassword} />
      <Failure error={error} />
      <button type="submit" disabled={busy}>
        Sign in
      </button>
    </form>
  );
}

/** The invitation link's page: choose a password (the applicant rules), then sign in. */
function Join({ token, onDone }: { token: string; onDone: () => void }) {
  const [password, setPassword] = useState('');
  const { error, busy, submit } = useSubmit(
    () => staffCall(messageResponse, '/join', { method: 'POST', body: { token, password } }),
    onDone,
  );
  return (
    <form className={styles.card} onSubmit={submit} aria-labelledby="staff-join">
      <h2 id="staff-join">Choose your password</h2>
      <p>
        At least 12 characters, with upper and lower case letters, a number and a special character.
      </p>
      <TextField
        label="New password"
        type="password"
        value={password}
        onChange={setPassword}
        autoComplete="new-password"
      />
      <Failure error={error} />
      <button type="submit" disabled={busy}>
        Set password
      </button>
    </form>
  );
}

function CodeForm({
  heading,
  path,
  onDone,
  children,
}: {
  heading: string;
  path: string;
  onDone: (answer: unknown) => void;
  children?: ReactNode;
}) {
  const [code, setCode] = useState('');
  const { error, busy, submit } = useSubmit(
    () =>
      fetch(`/staff/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: code.trim() }),
      }).then(async (response) => {
        const data: unknown = await response.json();
        if (!response.ok)
          throw new StaffApiError(response.status, messageResponse.parse(data).message);
        return data;
      }),
    onDone,
  );
  return (
    <form className={styles.card} onSubmit={submit} aria-labelledby="staff-code">
      <h2 id="staff-code">{heading}</h2>
      {children}
      <TextField label="Code" value={code} onChange={setCode} autoComplete="one-time-code" />
      <Failure error={error} />
      <button type="submit" disabled={busy}>
        Continue
      </button>
    </form>
  );
}

function Enrol({ me, onDone }: { me: StaffMe; onDone: (me: StaffMe) => void }) {
  const enrolment = useQuery({
    queryKey: ['staff', 'enrolment'],
    queryFn: () => staffCall(enrolmentResponse, '/enrolment'),
    staleTime: Infinity,
  });
  const [codes, setCodes] = useState<string[] | null>(null);
  if (codes)
    return (
      <section className={styles.card} aria-labelledby="staff-recovery">
        <h2 id="staff-recovery">Your recovery codes</h2>
        <p>Keep these codes somewhere safe. Each signs you in once if your phone is not at hand.</p>
        <ul className={styles.codes}>
          {codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
        <button type="button" onClick={() => onDone({ ...me, stage: 'signed-in' })}>
          I have kept them
        </button>
      </section>
    );
  return (
    <CodeForm
      heading="Set up your authenticator app"
      path="/enrolment"
      onDone={(data) => setCodes(recoveryCodesResponse.parse(data).recovery_codes)}
    >
      <p>Scan this code with an authenticator app, then enter the 6-digit code it shows.</p>
      {enrolment.data ? (
        <>
          <img
            className={styles.qr}
            alt="QR code for your authenticator app"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.data.svg)}`}
          />
          <p>
            Or type this key: <code data-testid="totp-secret">{enrolment.data.secret}</code>
          </p>
        </>
      ) : (
        <Failure error={enrolment.error} />
      )}
    </CodeForm>
  );
}

function Verify({ me, onDone }: { me: StaffMe; onDone: (me: StaffMe) => void }) {
  return (
    <CodeForm
      heading="Enter your authenticator code"
      path="/verify"
      onDone={() => onDone({ ...me, stage: 'signed-in' })}
    >
      <p>Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
    </CodeForm>
  );
}

function Console({ me, onSignOut }: { me: StaffMe; onSignOut: () => void }) {
  const [open, setOpen] = useState<string | null>(null);
  const signOut = () =>
    void fetch('/staff/api/logout', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }).finally(onSignOut);
  const isAdmin = me.role === 'admin';
  return (
    <>
      <p>
        Signed in as {me.email} ({me.role}).{' '}
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </p>
      <Tabs.Root defaultValue="applications">
        <Tabs.List className={styles.tabs} aria-label="Console sections">
          <Tabs.Trigger className={styles.tab} value="applications">
            Applications
          </Tabs.Trigger>
          {isAdmin && (
            <>
              <Tabs.Trigger className={styles.tab} value="staff">
                Staff
              </Tabs.Trigger>
              <Tabs.Trigger className={styles.tab} value="audit">
                Audit log
              </Tabs.Trigger>
            </>
          )}
        </Tabs.List>
        <Tabs.Content value="applications">
          {open ? (
            <ApplicationView id={open} isAdmin={isAdmin} onBack={() => setOpen(null)} />
          ) : (
            <ApplicationTable isAdmin={isAdmin} onOpen={setOpen} />
          )}
        </Tabs.Content>
        {isAdmin && (
          <>
            <Tabs.Content value="staff">
              <StaffAdmin />
            </Tabs.Content>
            <Tabs.Content value="audit">
              <AuditLog />
            </Tabs.Content>
          </>
        )}
      </Tabs.Root>
    </>
  );
}

function TextField({
  label,
  value,
  onChange,
  type = 'text',
  autoComplete,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  autoComplete?: string;
}) {
  return (
    <label className={styles.field}>
      {label}
      <input
        type={type}
        value={value}
        autoComplete={autoComplete}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}

const SORT_LABELS = [
  ['name', 'Name'],
  ['email', 'E-mail'],
  ['status', 'Status'],
  ['submitted', 'Submitted'],
  ['updated', 'Last change'],
  ['documents', 'Documents'],
] as const;

function searchOf(query: ApplicationQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(key, String(value));
  return params.toString();
}

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

function ApplicationTable({ isAdmin, onOpen }: { isAdmin: boolean; onOpen: (id: string) => void }) {
  const [query, setQuery] = useState<ApplicationQuery>({ sort: 'updated', dir: 'desc', page: 1 });
  const update = (change: Partial<ApplicationQuery>) => setQuery({ ...query, page: 1, ...change });
  const search = searchOf(query);
  const page = useQuery({
    queryKey: ['staff', 'applications', search],
    queryFn: () => staffCall(applicationPage, `/applications?${search}`),
    placeholderData: (previous) => previous,
  });
  const pages = page.data ? Math.max(1, Math.ceil(page.data.total / page.data.size)) : 1;
  const { page: _page, size: _size, ...filter } = query;
  return (
    <section aria-label="Applications">
      <div className={styles.bar}>
        <TextField
          label="Search by name or e-mail"
          value={query.q ?? ''}
          onChange={(q) => update({ q })}
        />
        <label className={styles.field}>
          Status
          <select
            value={query.status ?? ''}
            onChange={(event) =>
              update({ status: (event.target.value || undefined) as ApplicationQuery['status'] })
            }
          >
            <option value="">Any</option>
            {APPLICATION_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </label>
        <TextField
          label="Submitted from"
          type="date"
          value={query.from ?? ''}
          onChange={(from) => update({ from: from || undefined })}
        />
        <TextField
          label="Submitted to"
          type="date"
          value={query.to ?? ''}
          onChange={(to) => update({ to: to || undefined })}
        />
        {isAdmin && (
          <a href={`/staff/api/export.csv?${searchOf(filter)}`} download="applications.csv">
            Export CSV
          </a>
        )}
      </div>
      <Failure error={page.error} />
      <p role="status">{page.data ? `${page.data.total} applications` : 'Loading…'}</p>
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <thead>
            <tr>
              {SORT_LABELS.map(([sort, label]) => (
                <th
                  key={sort}
                  scope="col"
                  aria-sort={
                    query.sort === sort
                      ? query.dir === 'asc'
                        ? 'ascending'
                        : 'descending'
                      : 'none'
                  }
                >
                  <button
                    type="button"
                    onClick={() =>
                      update({
                        sort,
                        dir: query.sort === sort && query.dir === 'desc' ? 'asc' : 'desc',
                      })
                    }
                  >
                    {label}
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {page.data?.rows.map((row) => (
              <tr key={row.id}>
                <td>
                  <button type="button" onClick={() => onOpen(row.id)}>
                    {row.name || '(no name yet)'}
                  </button>
                </td>
                <td>{row.email}</td>
                <td>{row.status}</td>
                <td>{day(row.submitted_at)}</td>
                <td>{day(row.updated_at)}</td>
                <td>{row.documents}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav className={styles.bar} aria-label="Pages">
        <button
          type="button"
          disabled={(query.page ?? 1) <= 1}
          onClick={() => setQuery({ ...query, page: (query.page ?? 1) - 1 })}
        >
          Previous page
        </button>
        <span>
          Page {query.page ?? 1} of {pages}
        </span>
        <button
          type="button"
          disabled={(query.page ?? 1) >= pages}
          onClick={() => setQuery({ ...query, page: (query.page ?? 1) + 1 })}
        >
          Next page
        </button>
      </nav>
    </section>
  );
}

function ApplicationView({
  id,
  isAdmin,
  onBack,
}: {
  id: string;
  isAdmin: boolean;
  onBack: () => void;
}) {
  const application = useQuery({
    queryKey: ['staff', 'application', id],
    queryFn: () => staffCall(serviceDataResponse, `/applications/${id}`),
  });
  const [notice, setNotice] = useState<string | null>(null);
  usePrintStylesheet();
  const getPdf = () =>
    void download(`/applications/${id}/pdf`, 'application.pdf').then((message) =>
      setNotice(message),
    );
  return (
    <section aria-label="Application">
      <div className={styles.bar}>
        <button type="button" onClick={onBack}>
          Back to the list
        </button>
        <button type="button" onClick={getPdf}>
          Download the PDF
        </button>
      </div>
      {notice && <p role="status">{notice}</p>}
      <Failure error={application.error} />
      {application.data && (
        <>
          <h2>Documents</h2>
          <ul>
            {Object.entries(application.data.document_answer).map(([key, file]) => (
              <li key={key}>
                <a
                  href={`/staff/api/applications/${id}/documents/${key}`}
                  target="_blank"
                  rel="noreferrer"
                >
                  {file.file_name}
                </a>
              </li>
            ))}
          </ul>
          <ServiceLinks id={id} isAdmin={isAdmin} />
          <PrintApplication
            definition={applicationDefinition}
            answers={application.data.answer}
            tabs={application.data.tabs}
            documents={Object.keys(application.data.document_answer)}
          />
        </>
      )}
    </section>
  );
}

function ServiceLinks({ id, isAdmin }: { id: string; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const links = useQuery({
    queryKey: ['staff', 'links', id],
    queryFn: () => staffCall(serviceLinkList, `/applications/${id}/links`),
  });
  const [minted, setMinted] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['staff', 'links', id] });
  const mint = () =>
    void staffCall(mintedLink, `/applications/${id}/links`, { method: 'POST', body: {} }).then(
      (link) => {
        setMinted(link.url);
        void refresh();
      },
    );
  const revoke = (tokenId: string) =>
    void staffCall(messageResponse, `/applications/${id}/links/${tokenId}`, {
      method: 'DELETE',
    }).then(refresh);
  return (
    <section aria-label="Service links">
      <h2>Service links</h2>
      <button type="button" onClick={mint}>
        Make a link for a reviewer
      </button>
      {minted && (
        <p>
          New link (valid 1 hour): <code>{minted}</code>
        </p>
      )}
      <ul>
        {links.data?.links.map((link) => (
          <li key={link.id}>
            {link.created_by ?? 'cli'}, until {link.expires_at.slice(0, 16).replace('T', ' ')} UTC
            {link.revoked_at ? ' (revoked)' : ''}
            {isAdmin && !link.revoked_at && (
              <button type="button" onClick={() => revoke(link.id)}>
                Revoke
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function StaffAdmin() {
  const queryClient = useQueryClient();
  const staff = useQuery({
    queryKey: ['staff', 'members'],
    queryFn: () => staffCall(staffList, '/staff'),
  });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<(typeof STAFF_ROLES)[number]>('reader');
  const [message, setMessage] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['staff', 'members'] });
  const { error, busy, submit } = useSubmit(
    () => staffCall(messageResponse, '/invitations', { method: 'POST', body: { email, role } }),
    (answer) => {
      setMessage(answer.message);
      setEmail('');
      void refresh();
    },
  );
  const disable = (id: string) =>
    void staffCall(messageResponse, `/staff/${id}/disable`, { method: 'POST', body: {} }).then(
      refresh,
    );
  return (
    <section aria-label="Staff">
      <form className={styles.bar} onSubmit={submit}>
        <TextField label="E-mail address" type="email" value={email} onChange={setEmail} />
        <label className={styles.field}>
          Role
          <select value={role} onChange={(event) => setRole(event.target.value as typeof role)}>
            {STAFF_ROLES.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy}>
          Invite
        </button>
      </form>
      <Failure error={error} />
      {message && <p role="status">{message}</p>}
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">State</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {staff.data?.staff.map((member) => (
            <tr key={member.id}>
              <td>{member.email}</td>
              <td>{member.role}</td>
              <td>{member.state}</td>
              <td>
                {member.state !== 'disabled' && (
                  <button type="button" onClick={() => disable(member.id)}>
                    Disable {member.email}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function AuditLog() {
  const audit = useQuery({
    queryKey: ['staff', 'audit'],
    queryFn: () => staffCall(auditPage, '/audit'),
  });
  return (
    <section aria-label="Audit log">
      <Failure error={audit.error} />
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">When (UTC)</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Applicant</th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          {audit.data?.entries.map((entry, index) => (
            <tr key={index}>
              <td>{entry.at.slice(0, 19).replace('T', ' ')}</td>
              <td>{entry.actor}</td>
              <td>{entry.action}</td>
              <td>{entry.applicant_id ?? ''}</td>
              <td>{entry.detail ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
