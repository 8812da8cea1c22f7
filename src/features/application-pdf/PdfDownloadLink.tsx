/**
 * The PDF copy's download link (SPEC 2.4, 4.5, 8): disabled with a loading indicator while the PDF is
 * prepared, a real link once it is ready, and the "Error downloading PDF copy of your application."
 * toast when it could not be prepared. A click refetches the status and downloads from the URL that
 * answer hands out (download URLs are short-lived).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, type MouseEvent } from 'react';
import { isPdfPending } from '#contract';
import { notices } from '#contract/words.ts';
import { Icon } from '../../chrome/Icon';
import { useToast } from '../../chrome/toast';
import { applicationPdfQuery } from './api/applicationPdf';
import styles from './pdfDownload.module.css';

const text = notices.pdfDownload;

/** Starts the download (same origin, `Content-Disposition: attachment`: the page stays). */
function startDownload(url: string): void {
  window.location.assign(url);
}

export function PdfDownloadLink({
  download = startDownload,
}: {
  download?: (url: string) => void;
}) {
  const pdf = useQuery(applicationPdfQuery);
  const toast = useToast();
  const status = pdf.isError ? 'FAILED' : pdf.data?.status;
  const pending = pdf.isPending || isPdfPending(status);

  // SPEC 8: one toast each time a status read says FAILED (or the read itself fails).
  const toasted = useRef(0);
  const updatedAt = Math.max(pdf.dataUpdatedAt, pdf.errorUpdatedAt);
  useEffect(() => {
    if (status !== 'FAILED' || updatedAt === toasted.current) return;
    toasted.current = updatedAt;
    toast.show({
      title: text.failed,
      description: pdf.isError ? pdf.error.message : (pdf.data?.message ?? undefined),
      severity: 'error',
    });
  }, [status, updatedAt, pdf.isError, pdf.error, pdf.data, toast]);

  const refetchAndDownload = async (event?: MouseEvent) => {
    event?.preventDefault();
    const { data } = await pdf.refetch();
    if (data?.status === 'COMPLETED' && data.url) download(data.url);
  };

  return (
    <p className={styles.box} data-state={pending ? 'pending' : (status ?? 'pending')}>
      {pending ? (
        <a className={styles.link} aria-disabled="true" role="link">
          <span className={styles.spinner} aria-hidden="true" />
          {text.link}
        </a>
      ) : status === 'COMPLETED' && pdf.data?.url ? (
        <a
          className={styles.link}
          href={pdf.data.url}
          // refetch never rejects: a failed status shows through the effect above.
          onClick={(event) => void refetchAndDownload(event)}
        >
          <Icon name="download" className={styles.icon} />
          {text.link}
        </a>
      ) : (
        <button type="button" className={styles.link} onClick={() => void refetchAndDownload()}>
          <Icon name="download" className={styles.icon} />
          {text.retry}
        </button>
      )}
      <span className={styles.status} role="status">
        {pending ? text.preparing : ''}
      </span>
    </p>
  );
}
