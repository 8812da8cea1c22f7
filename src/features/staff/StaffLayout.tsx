/**
 * The staff console's page (docs/staff.md): its own header (the institution, "Staff", the
 * signed-in address, Sign out) and navigation, never the applicant's chrome. A view asked for without
 * a staff session goes to `/staff/login`, which keeps the view's address and returns to it once the
 * sign-in (password, then the second factor) is complete.
 */
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useRouter, useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { messageResponse } from '#contract';
import type { StaffMe } from '#contract/staff.ts';
import { institutionConfig } from '../../tenant/tenantData';
import { staffCall } from './api';
import { Enrolment } from './Enrolment';
import { STAFF_OPEN_PATHS } from './routes';
import { createStaffQueryClient, meKey, useMe } from './session';
import { SignIn, Verify } from './SignIn';
import styles from './staff.module.css';

export function StaffLayout() {
  const [client] = useState(createStaffQueryClient);
  return (
    <QueryClientProvider client={client}>
      <Page />
    </QueryClientProvider>
  );
}

function Page() {
  const me = useMe();
  const open = useRouterState({
    select: (state) => STAFF_OPEN_PATHS.includes(state.location.pathname),
  });
  const signedIn = me.data?.stage === 'signed-in' ? me.data : null;
  return (
    <div className={styles.page}>
      <a className="visually-hidden" href="#staff-main">
        Skip to the console
      </a>
      <header className={styles.header}>
        <p className={styles.brand}>
          {institutionConfig.partner_name}
          <span className={styles.badge}>Staff</span>
        </p>
        {signedIn ? <Navigation me={signedIn} /> : null}
      </header>
      <main id="staff-main" className={styles.main} tabIndex={-1}>
        {open ? <Outlet /> : <Gate />}
      </main>
    </div>
  );
}

function Navigation({ me }: { me: StaffMe }) {
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState(false);
  const signOut = () => {
    setLeaving(true);
    void staffCall(messageResponse, '/logout', { method: 'POST', body: {} })
      .catch(() => undefined)
      .finally(() => {
        queryClient.removeQueries({ predicate: (query) => query.queryKey[1] !== 'me' });
        queryClient.setQueryData<StaffMe | null>(meKey, null);
        setLeaving(false);
      });
  };
  const current = { 'aria-current': 'page' } as const;
  // The list and an application opened from it are both "Applications".
  const inApplications = useRouterState({
    select: (state) => /^\/staff(\/applications\/.*)?\/?$/.test(state.location.pathname),
  });
  return (
    <>
      <nav aria-label="Console" className={styles.nav}>
        {/* Exact: every view is under /staff, and a fuzzy match would mark this one current too. */}
        <Link
          to="/staff"
          activeOptions={{ exact: true }}
          className={styles.navLink}
          aria-current={inApplications ? 'page' : undefined}
        >
          Applications
        </Link>
        {me.role === 'admin' ? (
          <>
            <Link to="/staff/staff" className={styles.navLink} activeProps={current}>
              Staff
            </Link>
            <Link to="/staff/links" className={styles.navLink} activeProps={current}>
              Service links
            </Link>
            <Link to="/staff/audit" className={styles.navLink} activeProps={current}>
              Audit log
            </Link>
            <Link to="/staff/versions" className={styles.navLink} activeProps={current}>
              Form versions
            </Link>
            <Link to="/staff/deletions" className={styles.navLink} activeProps={current}>
              Deletion requests
            </Link>
          </>
        ) : null}
      </nav>
      <div className={styles.account}>
        <span>
          {me.email} ({me.role})
        </span>
        <button type="button" className={styles.quiet} onClick={signOut} disabled={leaving}>
          Sign out
        </button>
      </div>
    </>
  );
}

function Gate() {
  const me = useMe();
  const location = useRouterState({ select: (state) => state.location });
  const onLogin = location.pathname === STAFF_LOGIN_PATH;
  if (me.isPending) return <p role="status">Loading…</p>;
  if (!me.data) {
    if (onLogin) return <SignIn />;
    return <Navigate to={STAFF_LOGIN_PATH} search={{ next: location.href }} replace />;
  }
  if (me.data.stage === 'enrol') return <Enrolment me={me.data} />;
  if (me.data.stage === 'verify') return <Verify me={me.data} />;
  if (onLogin) return <ReplaceWith href={afterSignIn(location.search)} />;
  return <Outlet />;
}

const STAFF_LOGIN_PATH = '/staff/login';

/** Replaces the address with a full href (a view with its own search), as a redirect would. */
function ReplaceWith({ href }: { href: string }) {
  const router = useRouter();
  useEffect(() => router.history.replace(href), [router, href]);
  return null;
}

/** Where a completed sign-in goes: the console view it was asked for, never another site or app. */
function afterSignIn(search: Record<string, unknown>): string {
  const next = typeof search.next === 'string' ? search.next : '';
  return /^\/staff(\/|\?|$)/.test(next) && !next.startsWith(STAFF_LOGIN_PATH) ? next : '/staff';
}
