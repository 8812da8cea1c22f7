/**
 * `/staff/deletions` (admins, D152, D164): applicants of a submitted application who asked for their
 * account's deletion, newest first, and the requests completed. An admin completes one after a
 * confirmation, once the college need not keep the application (its institution file says how
 * long); the account, the application, its documents and PDFs go at once. Both are audited.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { messageResponse } from '#contract';
import { deletionRequestList, type DeletionRequestList } from '#contract/deletionRequests.ts';
import { staffMessages } from '#contract/staff.ts';
import ChromeDialogFrame from '../../chrome/ChromeDialogFrame';
import { institutionConfig } from '../../tenant/tenantData';
import { staffCall } from './api';
import { useMe } from './session';
import styles from './staff.module.css';
import {
  ApplicationLink,
  ConfirmActions,
  Failure,
  localTime,
  Notice,
  TableFrame,
  useStaffTitle,
} from './ui';

const deletionsKey = ['staff', 'deletion-requests'];
const HEADING_ID = 'staff-deletions';

type Pending = DeletionRequestList['requests'][number];

export function DeletionsPage() {
  useStaffTitle('Deletion requests');
  const isAdmin = useMe().data?.role === 'admin';
  return (
    <section aria-labelledby={HEADING_ID}>
      <h1 id={HEADING_ID} className={styles.title} tabIndex={-1}>
        Deletion requests
      </h1>
      {isAdmin ? <Requests /> : <Failure error={staffMessages.forbidden} />}
    </section>
  );
}

/** An applicant as the console's lists name them: the name, else the address. */
const who = (request: Pending) => request.name || request.email;

function Requests() {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: deletionsKey,
    queryFn: () => staffCall(deletionRequestList, '/deletion-requests'),
  });
  const [confirming, setConfirming] = useState<Pending | null>(null);
  const returnFocusTo = useRef<HTMLElement | null>(null);
  const complete = useMutation({
    mutationFn: (request: Pending) =>
      staffCall(messageResponse, `/deletion-requests/${request.applicant_id}/complete`, {
        method: 'POST',
        body: {},
      }),
    onSuccess: () => {
      // The row's button is gone: focus goes to the page's heading, above the notice.
      returnFocusTo.current = document.getElementById(HEADING_ID);
      setConfirming(null);
      void queryClient.invalidateQueries({ queryKey: deletionsKey });
    },
  });
  // A double click sends one request (the button is disabled only once React has rendered again).
  const sending = useRef(false);
  const confirm = () => {
    if (!confirming || sending.current) return;
    sending.current = true;
    complete.mutate(confirming, { onSettled: () => (sending.current = false) });
  };
  const years = list.data?.submitted_kept_years;

  return (
    <>
      <p>
        An applicant whose application is submitted asks here for their account to be deleted.{' '}
        {years !== undefined
          ? `${institutionConfig.partner_name} keeps submitted applications for ${years} year${years === 1 ? '' : 's'}; `
          : ''}
        complete a request once the application need not be kept any longer. The account, the
        application, its documents and PDFs are then deleted at once, and the applicant is told by
        e-mail.
      </p>
      {complete.data ? <Notice>{complete.data.message}</Notice> : null}
      <Failure error={list.error} />
      <h2 className={styles.subtitle}>Waiting</h2>
      {list.data && list.data.requests.length === 0 ? (
        <p>No request is waiting.</p>
      ) : (
        <TableFrame label="Requests waiting">
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Applicant</th>
                <th scope="col">Reference</th>
                <th scope="col">Submitted</th>
                <th scope="col">Asked</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.data?.requests.map((request) => (
                <tr key={request.applicant_id}>
                  <td>
                    <ApplicationLink id={request.applicant_id} name={request.name} />
                    <br />
                    {request.email}
                  </td>
                  <td className={styles.mono}>{request.reference}</td>
                  <td className={styles.nowrap}>
                    {request.submitted_at ? localTime(request.submitted_at) : 'Not submitted'}
                  </td>
                  <td className={styles.nowrap}>{localTime(request.requested_at)}</td>
                  <td>
                    <button
                      type="button"
                      className={styles.secondary}
                      aria-haspopup="dialog"
                      onClick={(event) => {
                        returnFocusTo.current = event.currentTarget;
                        complete.reset();
                        setConfirming(request);
                      }}
                    >
                      Complete deletion
                      <span className="visually-hidden"> of {who(request)}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableFrame>
      )}
      <h2 className={styles.subtitle}>Completed</h2>
      {list.data && list.data.completed.length === 0 ? (
        <p>No request has been completed yet.</p>
      ) : (
        <TableFrame label="Requests completed">
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Reference</th>
                <th scope="col">Asked</th>
                <th scope="col">Completed</th>
                <th scope="col">By</th>
              </tr>
            </thead>
            <tbody>
              {list.data?.completed.map((done) => (
                <tr key={`${done.reference}-${done.completed_at}`}>
                  <td className={styles.mono}>{done.reference}</td>
                  <td className={styles.nowrap}>
                    {done.requested_at ? localTime(done.requested_at) : ''}
                  </td>
                  <td className={styles.nowrap}>{localTime(done.completed_at)}</td>
                  <td>{done.completed_by}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableFrame>
      )}
      <p>
        A completed request keeps only the reference: the account, its name and its address are
        gone.
      </p>
      <ChromeDialogFrame
        title="Complete this deletion?"
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open && !complete.isPending) setConfirming(null);
        }}
        returnFocusTo={returnFocusTo}
      >
        {confirming ? (
          <p>
            The account of <strong>{who(confirming)}</strong> ({confirming.email}, reference{' '}
            {confirming.reference}) and its application, documents and PDFs will be deleted at once.
            This cannot be undone.
          </p>
        ) : null}
        <ConfirmActions
          error={complete.error}
          pending={complete.isPending}
          label="Delete the account"
          onConfirm={confirm}
          onCancel={() => setConfirming(null)}
        />
      </ChromeDialogFrame>
    </>
  );
}
