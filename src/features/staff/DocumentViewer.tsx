/**
 * The applicant's converted document beside the application (D174): the staff PDF route framed in a
 * labelled region, its question's label as the heading (focused on open), "Download" and "Open in a new tab"
 * beside it, and "Close" (or Escape inside the region) returning focus to the document's link.
 * Inside the frame the browser's PDF viewer takes every key, Escape too (D174): a hint above it,
 * also the frame's description, says so and points to Close.
 */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { convertedFileName } from '#contract/staff.ts';
import styles from './documentViewer.module.css';
import staffStyles from './staff.module.css';

export interface ViewedDocument {
  readonly key: string;
  /** The question's label ("Unofficial Transcript"): what the officer knows the document by. */
  readonly name: string;
  /** The uploaded file's name, which the download keeps. */
  readonly fileName: string;
}

/** The staff route answering the converted PDF of `key` (audited as `application.document`). */
export const documentAddress = (id: string, key: string) =>
  `/staff/api/applications/${encodeURIComponent(id)}/documents/${encodeURIComponent(key)}`;

export function DocumentViewer({
  id,
  document,
  onClose,
}: {
  id: string;
  document: ViewedDocument;
  onClose: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [document.key]);
  const address = documentAddress(id, document.key);
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onClose();
  };
  return (
    <section
      className={styles.viewer}
      aria-labelledby="document-viewer-title"
      onKeyDown={closeOnEscape}
    >
      <div className={styles.head}>
        <h2 id="document-viewer-title" className={styles.title} tabIndex={-1} ref={heading}>
          {document.name}
        </h2>
        <button type="button" className={staffStyles.secondary} onClick={onClose}>
          Close
        </button>
      </div>
      <div className={styles.actions}>
        <a
          className={staffStyles.link}
          href={address}
          download={convertedFileName(document.fileName)}
        >
          Download
        </a>
        <a className={staffStyles.link} href={address} target="_blank" rel="noreferrer">
          Open in a new tab
        </a>
      </div>
      <p id="document-viewer-keys" className={styles.keys}>
        Inside the document, keys go to the PDF viewer, Escape too: use Close to close it.
      </p>
      {/* One load per opening: the frame stays mounted while the document is open, so the read is
          audited once (the src changes only with the document). */}
      <iframe
        className={styles.frame}
        title={`${document.name} (PDF)`}
        aria-describedby="document-viewer-keys"
        src={address}
      />
    </section>
  );
}
