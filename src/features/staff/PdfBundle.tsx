/**
 * "Download PDFs (N)" (admins, D169): the list's filtered set as one ZIP of PDFs, built by the
 * worker. The progress is polled and announced; the finished ZIP is a link.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { pdfBundleStatus, type PdfBundleStatus } from '../../../contract/staffExports';
import { staffCall } from './api';
import styles from './staff.module.css';
import { Failure } from './ui';

const POLL_MS = 1000;

export function PdfBundleButton({ filter, total }: { filter: string; total: number | null }) {
  const start = useMutation({
    mutationFn: () =>
      staffCall(pdfBundleStatus, `/pdf-bundles${filter ? `?${filter}` : ''}`, { method: 'POST' }),
  });
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
      {start.data ? <Progress started={start.data} /> : null}
    </>
  );
}

function Progress({ started }: { started: PdfBundleStatus }) {
  const status = useQuery({
    queryKey: ['staff', 'pdf-bundle', started.id],
    queryFn: () => staffCall(pdfBundleStatus, `/pdf-bundles/${started.id}`),
    initialData: started,
    refetchInterval: (query) => (query.state.data?.state === 'building' ? POLL_MS : false),
  });
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
