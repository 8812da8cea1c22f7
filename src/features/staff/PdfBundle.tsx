/**
 * "Download PDFs (N)" (admins, D169): the list's filtered set as one ZIP of PDFs, built by the
 * worker. The progress is polled and announced; the finished ZIP is a link. The last one started in
 * the tab is kept in its session storage, so a reload shows it again (a ZIP of thousands takes
 * half an hour, D176); one retention removed is forgotten.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { pdfBundleStatus, type PdfBundleStatus } from '#contract/staffExports.ts';
import { StaffApiError, staffCall } from './api';
import styles from './staff.module.css';
import { Failure } from './ui';

const POLL_MS = 1000;
const STORED = 'staff-pdf-bundle';

function storedBundle(): PdfBundleStatus | null {
  try {
    const parsed = pdfBundleStatus.safeParse(JSON.parse(sessionStorage.getItem(STORED) ?? 'null'));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function PdfBundleButton({ filter, total }: { filter: string; total: number | null }) {
  const [started, setStarted] = useState(storedBundle);
  const start = useMutation({
    mutationFn: () =>
      staffCall(pdfBundleStatus, `/pdf-bundles${filter ? `?${filter}` : ''}`, { method: 'POST' }),
    onSuccess: (status) => {
      sessionStorage.setItem(STORED, JSON.stringify(status));
      setStarted(status);
    },
  });
  const forget = () => {
    sessionStorage.removeItem(STORED);
    setStarted(null);
  };
  return (
    <>
      <button
        type="button"
        className={styles.secondary}
        disabled={start.isPending || total === 0}
        onClick={() => start.mutate()}
      >
        Download PDFs{total === null ? '' : ` (${total.toLocaleString('en-US')})`}
      </button>
      <Failure error={start.error} />
      {started ? <Progress key={started.id} started={started} onGone={forget} /> : null}
    </>
  );
}

function Progress({ started, onGone }: { started: PdfBundleStatus; onGone: () => void }) {
  const status = useQuery({
    queryKey: ['staff', 'pdf-bundle', started.id],
    queryFn: () => staffCall(pdfBundleStatus, `/pdf-bundles/${started.id}`),
    initialData: started,
    // A kept one is asked for at once: it may have been finished, or removed, meanwhile.
    initialDataUpdatedAt: 0,
    refetchInterval: (query) => (query.state.data?.state === 'building' ? POLL_MS : false),
  });
  const gone = status.error instanceof StaffApiError && status.error.status === 404;
  useEffect(() => {
    if (gone) onGone();
  }, [gone, onGone]);
  const bundle = status.data;
  return (
    <p role="status" className={styles.count}>
      {bundle.state === 'building' ? (
        `Preparing the PDFs: ${bundle.done} of ${bundle.total}…`
      ) : bundle.state === 'ready' ? (
        <a
          className={styles.primary}
          href={`/staff/api/pdf-bundles/${bundle.id}/zip`}
          download={bundle.file_name}
        >
          Download the ZIP ({bundle.total} {bundle.total === 1 ? 'PDF' : 'PDFs'})
        </a>
      ) : (
        'The PDFs could not be prepared. Try again in a few minutes.'
      )}
    </p>
  );
}
